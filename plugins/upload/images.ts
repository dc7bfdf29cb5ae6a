import sharp from 'sharp';

/** Formats sharp can resize without losing what makes the file what it is (SVG stays vector). */
const RESIZABLE = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif', 'avif']);

/** Strapi's thumbnail box: fit inside 245×156. */
const THUMBNAIL = { width: 245, height: 156 };

export interface ImageInfo { width: number; height: number; resizable: boolean }

export interface FormatFile {
  key: string;
  buffer: Buffer;
  width: number;
  height: number;
  sizeInBytes: number;
}

/** Width and height of an image sharp can read; null for anything else (or a broken image). */
export async function probeImage(buffer: Buffer, mime: string): Promise<ImageInfo | null> {
  if (!mime.startsWith('image/')) return null;
  try {
    const meta = await sharp(buffer).metadata();
    if (!meta.width || !meta.height) return null;
    // EXIF orientations 5–8 swap the displayed width and height
    const swap = (meta.orientation ?? 1) >= 5;
    return {
      width: swap ? meta.height : meta.width,
      height: swap ? meta.width : meta.height,
      resizable: RESIZABLE.has(meta.format ?? ''),
    };
  } catch {
    return null;
  }
}

/**
 * The thumbnail (fit inside 245×156) and responsive formats (fit inside N×N per breakpoint),
 * each made only when the original is larger than its box, as Strapi does.
 */
export async function makeFormats(buffer: Buffer, image: ImageInfo, breakpoints: Record<string, number>): Promise<FormatFile[]> {
  if (!image.resizable) return [];
  const boxes: Array<[string, number, number]> = [];
  if (image.width > THUMBNAIL.width || image.height > THUMBNAIL.height) boxes.push(['thumbnail', THUMBNAIL.width, THUMBNAIL.height]);
  for (const [key, size] of Object.entries(breakpoints)) {
    if (image.width > size || image.height > size) boxes.push([key, size, size]);
  }
  const out: FormatFile[] = [];
  for (const [key, width, height] of boxes) {
    const { data, info } = await sharp(buffer).rotate().resize({ width, height, fit: 'inside', withoutEnlargement: true }).toBuffer({ resolveWithObject: true });
    out.push({ key, buffer: data, width: info.width, height: info.height, sizeInBytes: info.size });
  }
  return out;
}

/** Strapi reports sizes in kilobytes (1000 bytes) with two decimals. */
export const kilobytes = (bytes: number): number => Math.round((bytes / 1000) * 100) / 100;
