/** Generated images for the media library: deterministic gradients, encoded by sharp. */
import sharp from 'sharp';

/** A `width`×`height` RGB gradient whose hues depend on `seed` (so every file differs). */
export function makePng(width: number, height: number, seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  const r0 = (seed * 67) % 256;
  const g0 = (seed * 131) % 256;
  const b0 = (seed * 29) % 256;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3;
      raw[o] = (r0 + Math.floor((x * 255) / width)) & 255;
      raw[o + 1] = (g0 + Math.floor((y * 255) / height)) & 255;
      raw[o + 2] = (b0 + ((x ^ y) & 63)) & 255;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
