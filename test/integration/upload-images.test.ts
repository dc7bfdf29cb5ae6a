import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { copyApp } from '../../testing.ts';
import type { TestApp } from '../helpers/app.ts';
import { startApp, BLOG } from '../helpers/app.ts';

/**
 * Images are stored as Strapi 5.54 stores them: every expected size and dimension below is what
 * the reference Strapi answered for the same file, uploaded with the same settings (Strapi's
 * sharp 0.35.3 and Vellum's 0.34.5 write the same bytes for these images). The images are made
 * here with sharp, so they are the same bytes on every run.
 */
type Format = [bytes: number, width: number, height: number];
type Expected = [size: number, width: number, height: number, formats: Record<string, Format>];

const images: Record<string, { type: string; data: Buffer }> = {};
/** Strapi's bytesToKbytes, float rounding and all (268965 bytes → 268.96) */
const kilobytes = (bytes: number): number => Math.round((bytes / 1000) * 100) / 100;

/** A smooth picture with some texture: compresses like a photo. */
function photo(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = ((x * 255) / width) | 0;
      raw[i + 1] = ((y * 255) / height) | 0;
      raw[i + 2] = ((x + y) * 7 + ((x * 31 + y * 17) % 23)) % 256;
    }
  }
  return raw;
}
/** Noise, which PNG's palette quantization shrinks a lot. */
function noise(width: number, height: number): Buffer {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (((i * 7919) % 251) + (Math.floor(i / (width * 3)) % 64)) % 256;
  return raw;
}
const rawImage = (data: Buffer, width: number, height: number) => sharp(data, { raw: { width, height, channels: 3 } });

async function makeImages(): Promise<void> {
  const add = (name: string, type: string, data: Buffer): void => {
    images[name] = { type, data };
  };
  add('photo.jpg', 'image/jpeg', await rawImage(photo(1200, 800), 1200, 800).jpeg({ quality: 95 }).toBuffer());
  add('noise.png', 'image/png', await rawImage(noise(1200, 800), 1200, 800).png().toBuffer());
  add('photo.png', 'image/png', await rawImage(photo(900, 600), 900, 600).png().toBuffer());
  // stored 800×600, shown 600×800: EXIF orientation 6
  const rotated = rawImage(photo(800, 600), 800, 600).jpeg({ quality: 90 }).withMetadata({ orientation: 6 });
  add('rotated.jpg', 'image/jpeg', await rotated.toBuffer());
  add(
    'tiny.png',
    'image/png',
    await sharp({ create: { width: 64, height: 48, channels: 3, background: 'green' } })
      .png({ compressionLevel: 9, palette: true, colours: 2 })
      .toBuffer(),
  );
  add('anim.gif', 'image/gif', await rawImage(photo(600, 400), 600, 400).gif().toBuffer());
  add('pic.webp', 'image/webp', await rawImage(photo(800, 500), 800, 500).webp({ quality: 95 }).toBuffer());
}

async function uploadTo(t: TestApp, name: string, fileInfo?: object): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(images[name].data)], { type: images[name].type }), name);
  if (fileInfo) form.append('fileInfo', JSON.stringify(fileInfo));
  const headers = { authorization: `Bearer ${t.token}` };
  const res = await fetch(`${t.url}/api/upload`, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.json() };
}

/** Upload each image and compare the stored file with Strapi's answer for it, bytes on disk included. */
async function expectStrapi(t: TestApp, appDir: string, expected: Record<string, Expected>): Promise<void> {
  for (const [name, [size, width, height, formats]] of Object.entries(expected)) {
    const { status, body } = await uploadTo(t, name);
    expect(status).toBe(201);
    const [file] = body;
    const ext = path.extname(name);
    const base = path.basename(name, ext);
    expect([name, file.size, file.width, file.height]).toEqual([name, size, width, height]);
    expect(file).toMatchObject({ name, ext, mime: images[name].type, url: `/uploads/${file.hash}${ext}` });
    expect(file.hash).toMatch(new RegExp(`^${base}_[0-9a-f]{10}$`));
    const onDisk = await readFile(path.join(appDir, 'public', file.url));
    expect(kilobytes(onDisk.length)).toBe(size);
    const made = Object.entries(file.formats ?? {}) as Array<[string, any]>;
    const got = Object.fromEntries(made.map(([key, f]) => [key, [f.sizeInBytes, f.width, f.height]]));
    expect([name, got]).toEqual([name, formats]);
    for (const [key, f] of made) {
      expect(f).toEqual({
        name: `${key}_${name}`,
        hash: `${key}_${file.hash}`,
        ext,
        mime: images[name].type,
        path: null,
        url: `/uploads/${key}_${file.hash}${ext}`,
        width: f.width,
        height: f.height,
        size: kilobytes(f.sizeInBytes),
        sizeInBytes: f.sizeInBytes,
      });
      expect((await stat(path.join(appDir, 'public', f.url))).size).toBe(f.sizeInBytes);
    }
  }
}

/** An app with these upload settings in config/plugins → upload.config. */
async function withSettings(settings: object, run: (t: TestApp, appDir: string) => Promise<void>): Promise<void> {
  const appDir = await copyApp(BLOG);
  const t = await startApp({ appDir, config: { plugins: { upload: { config: settings } } } });
  try {
    await run(t, appDir);
  } finally {
    await t.close();
  }
}

beforeAll(makeImages);

describe('default settings (sizeOptimization and responsiveDimensions on, autoOrientation off)', () => {
  let t: TestApp;
  let appDir: string;
  beforeAll(async () => {
    appDir = await copyApp(BLOG);
    t = await startApp({ appDir });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores the original re-encoded at quality 80, and formats made from it, with Strapi's sizes", async () => {
    await expectStrapi(t, appDir, {
      'photo.jpg': [
        141.84,
        1200,
        800,
        {
          thumbnail: [7636, 234, 156],
          large: [101743, 1000, 667],
          medium: [62845, 750, 500],
          small: [33608, 500, 333],
        },
      ],
      'noise.png': [
        12.25,
        1200,
        800,
        {
          thumbnail: [54157, 234, 156],
          large: [762547, 1000, 667],
          medium: [543497, 750, 500],
          small: [268965, 500, 333],
        },
      ],
      'photo.png': [
        154.57,
        900,
        600,
        {
          thumbnail: [100513, 234, 156],
          medium: [997297, 750, 500],
          small: [446295, 500, 333],
        },
      ],
      'pic.webp': [
        49.2,
        800,
        500,
        {
          thumbnail: [6882, 245, 153],
          medium: [37628, 750, 469],
          small: [20356, 500, 312],
        },
      ],
    });
  });

  it('keeps the re-encoded original even when it is larger, as Strapi does (107 bytes sent, 119 stored)', async () => {
    expect(images['tiny.png'].data.length).toBe(107);
    await expectStrapi(t, appDir, { 'tiny.png': [0.12, 64, 48, {}] });
  });

  it('stores a GIF as sent (never re-encoded) but makes its formats', async () => {
    expect(images['anim.gif'].data.length).toBe(107236);
    const formats = { thumbnail: [18890, 234, 156], small: [81290, 500, 333] } satisfies Record<string, Format>;
    await expectStrapi(t, appDir, { 'anim.gif': [107.24, 600, 400, formats] });
  });

  it('ignores EXIF orientation: dimensions as stored, formats not rotated', async () => {
    await expectStrapi(t, appDir, {
      'rotated.jpg': [
        75.93,
        800,
        600,
        {
          thumbnail: [7457, 208, 156],
          medium: [66702, 750, 563],
          small: [32135, 500, 375],
        },
      ],
    });
  });

  it('names the file, its formats and its url after fileInfo.name (hash from it, ext from the file)', async () => {
    const cases: Array<[string, RegExp]> = [
      ['My Holiday Photo.jpeg', /^My_Holiday_Photo_jpeg_[0-9a-f]{10}$/],
      ['Été à Paris', /^Ete_a_Paris_[0-9a-f]{10}$/],
    ];
    for (const [name, hash] of cases) {
      const {
        status,
        body: [file],
      } = await uploadTo(t, 'photo.jpg', { name });
      expect(status).toBe(201);
      expect(file.name).toBe(name);
      expect(file.hash).toMatch(hash);
      expect(file).toMatchObject({ ext: '.jpg', url: `/uploads/${file.hash}.jpg`, size: 141.84 });
      const small = { name: `small_${name}`, hash: `small_${file.hash}`, url: `/uploads/small_${file.hash}.jpg` };
      expect(file.formats.small).toMatchObject(small);
    }
  });

  it('refuses a broken image (400 "File is not a valid image"), storing nothing', async () => {
    for (const [name, type] of [
      ['broken.jpg', 'image/jpeg'],
      ['broken.png', 'image/png'],
    ]) {
      const whole = images[name.replace('broken', 'photo')].data;
      images[name] = { type, data: whole.subarray(0, name.endsWith('jpg') ? 20_000 : 3000) };
      const before = Number((await t.sql('files').count({ n: '*' }).first())!.n);
      const { status, body } = await uploadTo(t, name);
      const error = { status: 400, name: 'ApplicationError', message: 'File is not a valid image', details: {} };
      expect([status, body]).toEqual([400, { data: null, error }]);
      expect(Number((await t.sql('files').count({ n: '*' }).first())!.n)).toBe(before);
    }
  });
});

describe("other settings, as Strapi's Media Library settings", () => {
  it('autoOrientation: the original is rotated as its EXIF says, and its formats are made from it', async () => {
    await withSettings({ autoOrientation: true }, (t, dir) =>
      expectStrapi(t, dir, {
        'rotated.jpg': [
          74.75,
          600,
          800,
          {
            thumbnail: [4288, 117, 156],
            medium: [65116, 563, 750],
            small: [32567, 375, 500],
          },
        ],
        'photo.jpg': [
          141.84,
          1200,
          800,
          {
            thumbnail: [7636, 234, 156],
            large: [101743, 1000, 667],
            medium: [62845, 750, 500],
            small: [33608, 500, 333],
          },
        ],
      }),
    );
  });

  it('sizeOptimization off: the original is stored as sent', async () => {
    await withSettings({ sizeOptimization: false }, (t, dir) =>
      expectStrapi(t, dir, {
        'photo.jpg': [
          352.24,
          1200,
          800,
          {
            thumbnail: [7713, 234, 156],
            large: [99896, 1000, 667],
            medium: [63378, 750, 500],
            small: [34332, 500, 333],
          },
        ],
        'rotated.jpg': [
          118.58,
          800,
          600,
          {
            thumbnail: [7518, 208, 156],
            medium: [62734, 750, 563],
            small: [32318, 500, 375],
          },
        ],
        'tiny.png': [0.11, 64, 48, {}],
        'pic.webp': [
          94.4,
          800,
          500,
          {
            thumbnail: [6978, 245, 153],
            medium: [39532, 750, 469],
            small: [21132, 500, 312],
          },
        ],
      }),
    );
  });

  it('autoOrientation without sizeOptimization: rotated and re-encoded at quality 100', async () => {
    await withSettings({ sizeOptimization: false, autoOrientation: true }, (t, dir) =>
      expectStrapi(t, dir, {
        'photo.jpg': [
          598.56,
          1200,
          800,
          {
            thumbnail: [7590, 234, 156],
            large: [97429, 1000, 667],
            medium: [61905, 750, 500],
            small: [33582, 500, 333],
          },
        ],
        'rotated.jpg': [
          278.93,
          600,
          800,
          {
            thumbnail: [4279, 117, 156],
            medium: [61114, 563, 750],
            small: [31930, 375, 500],
          },
        ],
      }),
    );
  });

  it('responsiveDimensions off: the thumbnail only', async () => {
    await withSettings({ responsiveDimensions: false }, (t, dir) =>
      expectStrapi(t, dir, {
        'photo.jpg': [141.84, 1200, 800, { thumbnail: [7636, 234, 156] }],
        'photo.png': [154.57, 900, 600, { thumbnail: [100513, 234, 156] }],
        'rotated.jpg': [75.93, 800, 600, { thumbnail: [7457, 208, 156] }],
      }),
    );
  });

  it('refuses a setting that is not a boolean, naming it', async () => {
    const config = { plugins: { upload: { config: { autoOrientation: 'yes' } } } };
    await expect(startApp({ appDir: await copyApp(BLOG), config })).rejects.toThrow(
      'upload.config.autoOrientation: expected boolean, got "yes"',
    );
  });
});
