import type { FieldIssue } from '../errors.ts';
import type { MediaAttribute } from './types.ts';

export type FileCategory = 'images' | 'videos' | 'audios' | 'files';

/** The `allowedTypes` category of a MIME type (`files`: anything that is not image, video or audio). */
export function fileCategory(mime: string): FileCategory {
  if (mime.startsWith('image/')) return 'images';
  if (mime.startsWith('video/')) return 'videos';
  if (mime.startsWith('audio/')) return 'audios';
  return 'files';
}

/** The problem with giving these file types to a media attribute, if any (no `allowedTypes`: anything goes). */
export function allowedTypesIssue(attr: MediaAttribute, mimes: string[], path: string[]): FieldIssue | null {
  const allowed = attr.allowedTypes;
  if (!allowed || allowed.length === 0) return null;
  const refused = mimes.find((mime) => !allowed.includes(fileCategory(mime)));
  if (refused === undefined) return null;
  return {
    path,
    message: `${path.join('.')} does not accept files of type ${refused} (allowed: ${allowed.join(', ')})`,
    name: 'ValidationError',
    value: refused,
  };
}
