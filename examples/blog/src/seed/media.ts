/**
 * The demo's files, put in the media library through the upload plugin (formats and all), one
 * by one. A file already there under its name is reused: a start that failed after uploading
 * some leaves them for the next one, rather than a second copy.
 */
import { type App, FILE_UID, resolveFilters, uploadPlugin } from 'vellum';
import type { Picture } from './pictures.ts';

/** The media library id of each picture, by its key; uploads what is missing. */
export async function demoMedia<K extends string>(app: App, pictures: Record<K, Picture>): Promise<Record<K, number>> {
  const upload = app.plugin(uploadPlugin).service;
  const ids = {} as Record<K, number>;
  for (const key of Object.keys(pictures) as K[]) {
    const picture = pictures[key];
    const filters = resolveFilters(app.registry, FILE_UID, { name: picture.name });
    const found = await app.documents(FILE_UID).findFirst({ filters, fields: ['name'] });
    if (found) {
      ids[key] = found.id as number;
      continue;
    }
    const file = { name: picture.name, mime: picture.mime, buffer: await picture.render() };
    const [created] = await upload.upload([file], [{ alternativeText: picture.alternativeText }]);
    ids[key] = created.id as number;
  }
  return ids;
}
