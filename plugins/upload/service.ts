import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { App } from '../../core/kernel/app.ts';
import { FILE_UID, type MediaAttribute } from '../../core/content-types/types.ts';
import { fieldErrors, notFound, validationError } from '../../core/errors.ts';
import { allowedTypesIssue } from '../../core/content-types/media.ts';
import type { Doc } from '../../core/documents/serialize.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import type { UploadConfig } from './config.ts';
import { kilobytes, makeFormats, probeImage } from './images.ts';
import type { IncomingFile } from './multipart.ts';
import type { ProviderFile, UploadProvider } from './providers.ts';

export interface FileInfo { name?: string; alternativeText?: string | null; caption?: string | null }
/** Where new uploads are attached: a media attribute of one document (`refId` = row id or documentId). */
export interface Link { ref: string; refId: string; field: string }

/** Every file it answers is read with `redact: true`: private attributes (`folderPath`) never reach a client. */
export interface UploadService {
  upload(files: IncomingFile[], infos: FileInfo[], link?: Link): Promise<Doc[]>;
  replace(id: number, file: IncomingFile, info: FileInfo): Promise<Doc>;
  updateInfo(id: number, info: FileInfo): Promise<Doc>;
  remove(id: number): Promise<Doc | null>;
  findById(id: number): Promise<Doc | null>;
}

/** Strapi-like hash: the file name made safe, then a random suffix. */
function hashOf(name: string): string {
  const base = path.basename(name, path.extname(name)).normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 100) || 'file';
  return `${base}_${randomBytes(5).toString('hex')}`;
}

/** The upload plugin's work, shared by its routes: bytes go to the provider, records to the document service. */
export function createUploadService(app: App, config: UploadConfig, provider: UploadProvider, providerName: string): UploadService {
  /** Give every stored piece back to the provider: a failed upload leaves no bytes behind. */
  async function discard(stored: ProviderFile[]): Promise<void> {
    for (const file of stored) {
      await provider.delete(file).catch((err: unknown) => app.log.error({ err, hash: file.hash }, 'could not remove an uploaded file'));
    }
  }

  /** Store one file and its formats with the provider; returns the file's record data. */
  async function store(file: IncomingFile, info: FileInfo, stored: ProviderFile[]): Promise<Record<string, unknown>> {
    const name = info.name ?? file.name;
    const ext = path.extname(file.name).toLowerCase();
    const hash = hashOf(file.name);
    const image = await probeImage(file.buffer, file.mime);
    const main: ProviderFile = {
      name, hash, ext, mime: file.mime, size: kilobytes(file.buffer.length), sizeInBytes: file.buffer.length,
      width: image?.width ?? null, height: image?.height ?? null, path: null, buffer: file.buffer,
    };
    stored.push(main);
    await provider.upload(main);
    const formats: Record<string, unknown> = {};
    for (const f of image ? await makeFormats(file.buffer, image, config.breakpoints) : []) {
      const piece: ProviderFile = {
        name: `${f.key}_${name}`, hash: `${f.key}_${hash}`, ext, mime: file.mime, path: null,
        width: f.width, height: f.height, size: kilobytes(f.sizeInBytes), sizeInBytes: f.sizeInBytes, buffer: f.buffer,
      };
      stored.push(piece);
      await provider.upload(piece);
      const { buffer: _, ...shape } = piece;
      formats[f.key] = { ...shape, url: piece.url };
    }
    return {
      name, alternativeText: info.alternativeText ?? null, caption: info.caption ?? null,
      width: main.width, height: main.height, formats: Object.keys(formats).length ? formats : null,
      hash, ext, mime: file.mime, size: main.size, url: main.url, previewUrl: null,
      provider: providerName, provider_metadata: main.provider_metadata ?? null, folderPath: '/',
    };
  }

  /** The stored pieces of a file record, to delete them. */
  function piecesOf(doc: Doc): ProviderFile[] {
    const main = { name: doc.name, hash: doc.hash, ext: doc.ext, mime: doc.mime, size: doc.size, url: doc.url, provider_metadata: doc.provider_metadata } as ProviderFile;
    const formats = Object.values((doc.formats ?? {}) as Record<string, ProviderFile>);
    return [main, ...formats];
  }

  /** Check a link before anything is stored: the document, the media attribute, the file types. */
  async function checkLink(link: Link, uploads: IncomingFile[]): Promise<{ attr: MediaAttribute; table: string; rows: Array<{ id: number; data: Record<string, unknown> }> }> {
    if (!app.registry.hasContentType(link.ref)) throw validationError(`Invalid ref: ${link.ref} is not a content-type`, { key: 'ref' });
    const ct = app.registry.contentType(link.ref);
    const attr = Object.hasOwn(ct.attributes, link.field) ? ct.attributes[link.field] : undefined;
    if (!attr || attr.type !== 'media') throw validationError(`Invalid field: ${link.field} is not a media attribute of ${link.ref}`, { key: 'field' });
    const q = app.db(ct.collectionName).select('id', 'data');
    const rows = /^\d{1,15}$/.test(link.refId) ? await q.where('id', Number(link.refId)) : await q.where('document_id', link.refId);
    if (rows.length === 0) throw validationError(`Document with id "${link.refId}" not found in ${link.ref}`, { key: 'refId' });
    const refused = allowedTypesIssue(attr, uploads.map((u) => u.mime), [link.field]);
    if (refused) throw fieldErrors([refused]);
    return { attr, table: ct.collectionName, rows };
  }

  async function attach(trx: Knex, target: Awaited<ReturnType<typeof checkLink>>, field: string, ids: number[]): Promise<void> {
    for (const row of target.rows) {
      const current = row.data[field];
      const value = target.attr.multiple ? [...new Set([...(Array.isArray(current) ? current as number[] : []), ...ids])] : ids[ids.length - 1];
      await trx(target.table).where('id', row.id)
        .update({ data: trx.raw('jsonb_set(data, ARRAY[?]::text[], ?::jsonb)', [field, JSON.stringify(value)]), updated_at: trx.fn.now() });
    }
  }

  const service: UploadService = {
    async upload(uploads, infos, link) {
      if (uploads.length === 0) throw validationError('Files are empty');
      const target = link ? await checkLink(link, uploads) : undefined;
      const stored: ProviderFile[] = [];
      try {
        const records: Record<string, unknown>[] = [];
        for (const [i, file] of uploads.entries()) records.push(await store(file, infos[i] ?? {}, stored));
        return await app.documents.transaction(async (docs, trx) => {
          const created: Doc[] = [];
          for (const data of records) created.push(await docs(FILE_UID).create({ data, redact: true }));
          if (target && link) await attach(trx, target, link.field, created.map((d) => d.id as number));
          return created;
        });
      } catch (err) {
        await discard(stored);
        throw err;
      }
    },
    async replace(id, file, info) {
      const existing = await service.findById(id);
      if (!existing) throw notFound('file.notFound');
      const stored: ProviderFile[] = [];
      let updated: Doc | null;
      try {
        const data = await store(file, { ...info, name: info.name ?? file.name }, stored);
        data.alternativeText = info.alternativeText !== undefined ? info.alternativeText : existing.alternativeText;
        data.caption = info.caption !== undefined ? info.caption : existing.caption;
        updated = await app.documents(FILE_UID).update({ documentId: existing.documentId as string, data, redact: true });
      } catch (err) {
        await discard(stored);
        throw err;
      }
      await discard(piecesOf(existing));
      return updated!;
    },
    async updateInfo(id, info) {
      const existing = await service.findById(id);
      if (!existing) throw notFound('file.notFound');
      const data: Record<string, unknown> = {};
      for (const key of ['name', 'alternativeText', 'caption'] as const) if (info[key] !== undefined) data[key] = info[key];
      return (await app.documents(FILE_UID).update({ documentId: existing.documentId as string, data, redact: true }))!;
    },
    async remove(id) {
      const existing = await service.findById(id);
      if (!existing) return null;
      // the core's delete also takes the file out of the media attributes that held it
      await app.documents(FILE_UID).delete({ documentId: existing.documentId as string });
      // the record is gone; the bytes follow (a failure here is logged, never undoes the delete)
      await discard(piecesOf(existing));
      return existing;
    },
    findById(id) {
      return app.documents(FILE_UID).findFirst({ filters: resolveFilters(app.registry, FILE_UID, { id }), redact: true });
    },
  };
  return service;
}
