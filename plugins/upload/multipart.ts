import { readFile, rm } from 'node:fs/promises';
import formidable, { errors as formidableErrors, type File } from 'formidable';
import type { IncomingMessage } from 'node:http';
import { payloadTooLarge, validationError } from '../../core/index.ts';

export interface IncomingFile {
  /** the client's file name */
  name: string;
  mime: string;
  buffer: Buffer;
}

/** File names are kept (`name`) and shown: no control characters, and no longer than file systems hold. */
function checkFileName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw validationError('A file name must not contain control characters (NUL, …)', { key: 'files' });
  }
  if (name.length > 255) throw validationError('A file name must not be longer than 255 characters', { key: 'files' });
  return name;
}

export interface ParsedUpload {
  /** the files of field `files`, in the order they were sent */
  files: IncomingFile[];
  /** the files of every field `fileField` admits, by field name (GraphQL's multipart requests) */
  byField: Map<string, IncomingFile[]>;
  /** every other form field, each possibly repeated (a Map: field names are client input) */
  fields: Map<string, string[]>;
}

/**
 * Read a multipart request: the files of field `files` (one or many; of every field
 * `fileField` admits) and the other fields. Files larger than `sizeLimit` (or all of them
 * together) are refused with 413 while they stream in; temporary files never outlive the request.
 */
export async function parseMultipart(
  req: IncomingMessage,
  sizeLimit: number,
  fileField: (name: string) => boolean = (name) => name === 'files',
): Promise<ParsedUpload> {
  // anything but a form carries no files: Strapi answers that with "Files are empty" (400)
  if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data'))
    return { files: [], byField: new Map(), fields: new Map() };
  const form = formidable({
    maxFileSize: sizeLimit,
    maxTotalFileSize: sizeLimit,
    maxFields: 1000,
    maxFieldsSize: 20 * 1024 * 1024,
    allowEmptyFiles: false,
    multiples: true,
  });
  // formidable lists files as they finish writing; fileInfo pairs with the order they were sent
  const arrival = new Map<unknown, number>();
  form.on('fileBegin', (_name, file) => arrival.set(file, arrival.size));
  let fields: formidable.Fields;
  let files: formidable.Files;
  try {
    [fields, files] = await form.parse(req);
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code === formidableErrors.biggerThanMaxFileSize || code === formidableErrors.biggerThanTotalMaxFileSize) {
      throw payloadTooLarge(`The upload is larger than the limit of ${sizeLimit} bytes`);
    }
    throw validationError(`Invalid multipart body: ${(err as Error).message}`);
  }
  const all = Object.values(files)
    .flat()
    .filter((f): f is File => !!f);
  try {
    const byField = new Map<string, IncomingFile[]>();
    for (const [field, list] of Object.entries(files)) {
      if (!list || !fileField(field)) continue;
      const wanted = [...list].sort((a, b) => (arrival.get(a) ?? 0) - (arrival.get(b) ?? 0));
      const out: IncomingFile[] = [];
      for (const f of wanted) {
        const name = checkFileName(f.originalFilename || 'file');
        out.push({ name, mime: f.mimetype || 'application/octet-stream', buffer: await readFile(f.filepath) });
      }
      byField.set(field, out);
    }
    const plain = new Map<string, string[]>();
    for (const [key, value] of Object.entries(fields)) if (value) plain.set(key, value);
    return { files: byField.get('files') ?? [], byField, fields: plain };
  } finally {
    await Promise.all(all.map((f) => rm(f.filepath, { force: true })));
  }
}
