import sharp from 'sharp';
import { applicationError } from '../../core/index.ts';

/*
 * Strapi 5's image-manipulation service, operation for operation, so that the same upload gives
 * the same bytes, sizes and dimensions as Strapi's with the same sharp version. The format names
 * are sharp's (`metadata().format`): an AVIF file reads as `heif`, so, as in Strapi, it is stored
 * as it is, without dimensions.
 */
/** Images Strapi looks at (dimensions, the broken-image check). */
const PROCESSED = new Set(['jpeg', 'png', 'webp', 'tiff', 'svg', 'gif', 'avif']);
/** Images it re-encodes (sizeOptimization, autoOrientation), each with its own encoder at a quality. */
const ENCODERS: Record<string, (image: sharp.Sharp, quality: number) => sharp.Sharp> = {
  jpeg: (image, quality) => image.jpeg({ quality }),
  png: (image, quality) => image.png({ quality }),
  webp: (image, quality) => image.webp({ quality }),
  tiff: (image, quality) => image.tiff({ quality }),
  avif: (image, quality) => image.avif({ quality }),
};
/** Images it makes formats of: SVG stays vector. */
const RESIZED = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);

/** Strapi's thumbnail box: fit inside 245×156. */
const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 };

/** Strapi's upload settings (its settings store; here `config/plugins` → `upload.config`). */
export interface ImageSettings {
  /** re-encode the original at quality 80 */
  sizeOptimization: boolean;
  /** rotate the original as its EXIF orientation says (re-encoding it, at quality 100 without sizeOptimization) */
  autoOrientation: boolean;
  /** make a format per breakpoint the image is larger than */
  responsiveDimensions: boolean;
  /** format name → largest dimension in px */
  breakpoints: Record<string, number>;
}

export interface FormatFile {
  key: string;
  buffer: Buffer;
  width: number;
  height: number;
  sizeInBytes: number;
}

/** What is stored for an image: the (optimized) original, its dimensions and its formats. */
export interface ProcessedImage {
  buffer: Buffer;
  width: number | null;
  height: number | null;
  formats: FormatFile[];
}

/** sharp's name of the image's format, or null when sharp cannot read it (not an image). */
async function formatOf(buffer: Buffer): Promise<string | null> {
  try {
    return (await sharp(buffer).metadata()).format ?? null;
  } catch {
    return null;
  }
}

/**
 * Re-encode the original, as Strapi's `optimize`: the same format at quality 80 (100 when only
 * `autoOrientation` asks for it), rotated by its EXIF orientation with `autoOrientation`. sharp
 * keeps no metadata, so without rotation the orientation tag is dropped. Strapi means to keep the
 * original when the result is larger, but compares with a size sharp never reports for the file
 * it reads, so the result is always kept; so is it here.
 */
async function optimize(buffer: Buffer, format: string, settings: ImageSettings): Promise<Buffer> {
  const encode = Object.hasOwn(ENCODERS, format) ? ENCODERS[format] : undefined;
  if (!(settings.sizeOptimization || settings.autoOrientation) || !encode) return buffer;
  const pipeline = encode(sharp(buffer, { animated: true }), settings.sizeOptimization ? 80 : 100);
  return (settings.autoOrientation ? pipeline.rotate() : pipeline).toBuffer();
}

/** One format: the image resized to fit inside the box, in its own format with sharp's defaults. */
async function resize(buffer: Buffer, key: string, width: number, height: number): Promise<FormatFile> {
  const { data, info } = await sharp(buffer, { animated: true })
    .resize({ width, height, fit: 'inside' })
    .toBuffer({ resolveWithObject: true });
  return { key, buffer: data, width: info.width, height: info.pageHeight ?? info.height, sizeInBytes: info.size };
}

/**
 * What Strapi stores for an upload that sharp reads as an image: a broken one is refused (400
 * "File is not a valid image"); the original is optimized; a thumbnail is made when the image
 * exceeds 245×156 and, with `responsiveDimensions`, a format for each breakpoint it exceeds in
 * either dimension. Dimensions are as stored, before any EXIF rotation. Null: not an image.
 */
export async function processImage(original: Buffer, settings: ImageSettings): Promise<ProcessedImage | null> {
  const format = await formatOf(original);
  if (!format || !PROCESSED.has(format)) return null;
  try {
    await sharp(original).stats();
  } catch {
    throw applicationError('File is not a valid image');
  }
  const buffer = await optimize(original, format, settings);
  const { width = null, height = null } = await sharp(buffer).metadata();
  const formats: FormatFile[] = [];
  if (!RESIZED.has(format) || !width || !height) return { buffer, width, height, formats };
  if (width > THUMBNAIL.width || height > THUMBNAIL.height) {
    formats.push(await resize(buffer, THUMBNAIL.key, THUMBNAIL.width, THUMBNAIL.height));
  }
  if (settings.responsiveDimensions) {
    for (const [key, size] of Object.entries(settings.breakpoints)) {
      if (size < width || size < height) formats.push(await resize(buffer, key, size, size));
    }
  }
  return { buffer, width, height, formats };
}

/** Strapi reports sizes in kilobytes (1000 bytes) with two decimals. */
export const kilobytes = (bytes: number): number => Math.round((bytes / 1000) * 100) / 100;
