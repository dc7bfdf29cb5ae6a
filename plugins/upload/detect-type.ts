import { fileTypeFromBuffer } from 'file-type';
import { validationError } from '../../core/index.ts';

/** The type an upload is stored and served as, and the extension that goes with it (`.png`). */
export interface StoredType {
  mime: string;
  ext: string;
}

/** What clients send when they do not know: no claim about the bytes. */
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/**
 * Text formats, which have no signature to detect: kept as declared, with this extension.
 * Anything else that is not recognized is stored as application/octet-stream (`.bin`).
 */
const TEXT_TYPES: Record<string, string> = {
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/tab-separated-values': '.tsv',
  'text/markdown': '.md',
  'text/css': '.css',
  'application/json': '.json',
  'application/yaml': '.yaml',
  'text/html': '.html',
  'application/xhtml+xml': '.xhtml',
  'image/svg+xml': '.svg',
  'application/xml': '.xml',
  'text/xml': '.xml',
  'text/javascript': '.js',
  'application/javascript': '.js',
};

/** Containers whose detected type is too broad: the declared member format keeps its own name. */
const CONTAINERS: Record<string, Record<string, string>> = {
  'application/x-cfb': {
    'application/msword': '.doc',
    'application/vnd.ms-excel': '.xls',
    'application/vnd.ms-powerpoint': '.ppt',
  },
};

/** image, audio-or-video (one container holds either: mp4, ogg, webm), or anything else */
const kindOf = (mime: string): 'image' | 'av' | 'other' =>
  mime.startsWith('image/') ? 'image' : mime.startsWith('video/') || mime.startsWith('audio/') ? 'av' : 'other';

/** `Image/PNG; charset=x` → `image/png` */
const essence = (mime: string): string => mime.split(';')[0].trim().toLowerCase();

/** SVG is text: it must at least hold an `<svg` element near its start to pass for an image. */
const looksLikeSvg = (buffer: Buffer): boolean => /<svg[\s>]/i.test(buffer.subarray(0, 64 * 1024).toString('utf8'));

/**
 * The type of an upload, decided by its bytes (file-type's signatures), never by the client alone,
 * so nothing declared as an image can be served as a page from the API's origin:
 * 1. Bytes in a format file-type recognizes are stored as that type, with its extension. The
 *    declared type may be generic or of the same kind (image, audio/video, other: `image/jpg`
 *    for a JPEG is fine); a declared type of another kind contradicts the bytes: 400.
 * 2. Other bytes (text — HTML, SVG, XML, JS, CSV — or an unknown binary):
 *    - a declared image, audio, video or PDF type is refused (400): those formats have a
 *      signature these bytes lack (`evil.html` sent as `image/png`). SVG, an image in text, is
 *      kept when the bytes hold an `<svg` element;
 *    - a declared text type of TEXT_TYPES is kept, with its extension;
 *    - anything else is stored as application/octet-stream (`.bin`).
 *    XML is treated as text here (file-type recognizes `<?xml`, which SVG files often start with).
 * What a browser would run (HTML, SVG, XML, JS) is stored, but served as an attachment under a
 * sandboxing CSP (`serve.ts`); the stored extension is what the file server derives the type from.
 */
export async function storedTypeOf(name: string, buffer: Buffer, declaredMime: string): Promise<StoredType> {
  const declared = essence(declaredMime);
  const detected = await fileTypeFromBuffer(buffer);
  if (detected && detected.mime !== 'application/xml') {
    if (!GENERIC.has(declared) && kindOf(declared) !== kindOf(detected.mime)) {
      throw validationError(`${name} is declared as ${declared} but its content is ${detected.mime}`, { key: 'files' });
    }
    const member = CONTAINERS[detected.mime]?.[declared];
    return member ? { mime: declared, ext: member } : { mime: detected.mime, ext: `.${detected.ext}` };
  }
  const signed = kindOf(declared) !== 'other' || declared === 'application/pdf';
  if (declared === 'image/svg+xml' ? !looksLikeSvg(buffer) : signed) {
    throw validationError(`${name} is declared as ${declared} but its content is not in that format`, { key: 'files' });
  }
  const ext = TEXT_TYPES[declared];
  return ext ? { mime: declared, ext } : { mime: 'application/octet-stream', ext: '.bin' };
}

/** Types a browser would render or run as a page or script if it opened the file itself. */
export function isActiveType(mime: string): boolean {
  const m = essence(mime);
  return (
    m === 'text/html' ||
    m.endsWith('/xml') ||
    m.endsWith('+xml') ||
    m === 'text/xsl' ||
    m.includes('javascript') ||
    m.includes('ecmascript') ||
    m === 'application/x-shockwave-flash'
  );
}
