import { type App, type Doc, FILE_UID, notFound, resolveFilters, validationError } from '../../core/index.ts';
import type { UploadConfig } from './config.ts';
import { storedTypeOf, type StoredType } from './detect-type.ts';
import { hashOf } from './file-name.ts';
import { kilobytes, processImage, type ImageSettings } from './images.ts';
import { createLinker, type Link } from './link.ts';
import type { IncomingFile } from './multipart.ts';
import type { ProviderFile, UploadProvider } from './providers.ts';

export interface FileInfo {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
}

/** Files are read as the document service reads by default: private attributes (`folderPath`) never reach a client. */
export interface UploadService {
  upload(files: IncomingFile[], infos: FileInfo[], link?: Link): Promise<Doc[]>;
  replace(id: number, file: IncomingFile, info: FileInfo): Promise<Doc>;
  updateInfo(id: number, info: FileInfo): Promise<Doc>;
  remove(id: number): Promise<Doc | null>;
  findById(id: number): Promise<Doc | null>;
}

/** An upload with the type its bytes have (detect-type.ts): what is stored, checked and served. */
type TypedFile = IncomingFile & StoredType;

const typed = (file: IncomingFile): Promise<TypedFile> =>
  storedTypeOf(file.name, file.buffer, file.mime).then((type) => ({ ...file, ...type }));

/** The upload plugin's work, shared by its routes: bytes go to the provider, records to the document service. */
export function createUploadService(
  app: App,
  config: UploadConfig,
  provider: UploadProvider,
  providerName: string,
): UploadService {
  const linker = createLinker(app);
  const { sizeOptimization, autoOrientation, responsiveDimensions, breakpoints } = config;
  const settings: ImageSettings = { sizeOptimization, autoOrientation, responsiveDimensions, breakpoints };
  /** Give every stored piece back to the provider: a failed upload leaves no bytes behind. */
  async function discard(stored: ProviderFile[]): Promise<void> {
    for (const file of stored) {
      await provider
        .delete(file)
        .catch((err: unknown) => app.log.error({ err, hash: file.hash }, 'could not remove an uploaded file'));
    }
  }

  /** Store one file and its formats with the provider; returns the file's record data. */
  async function store(file: TypedFile, info: FileInfo, stored: ProviderFile[]): Promise<Record<string, unknown>> {
    // as Strapi: fileInfo.name names the file, its formats and (through the hash) its url
    const name = (info.name ?? file.name).normalize();
    // from the type, never from the client's name: the file server derives the served type from it
    const { ext } = file;
    const hash = hashOf(name, file.name);
    const image = await processImage(file.buffer, settings);
    const buffer = image?.buffer ?? file.buffer;
    const main: ProviderFile = {
      name,
      hash,
      ext,
      mime: file.mime,
      size: kilobytes(buffer.length),
      sizeInBytes: buffer.length,
      width: image?.width ?? null,
      height: image?.height ?? null,
      path: null,
      buffer,
    };
    stored.push(main);
    await provider.upload(main);
    const formats: Record<string, unknown> = {};
    for (const f of image?.formats ?? []) {
      const piece: ProviderFile = {
        name: `${f.key}_${name}`,
        hash: `${f.key}_${hash}`,
        ext,
        mime: file.mime,
        path: null,
        width: f.width,
        height: f.height,
        size: kilobytes(f.sizeInBytes),
        sizeInBytes: f.sizeInBytes,
        buffer: f.buffer,
      };
      stored.push(piece);
      await provider.upload(piece);
      const { buffer: _, ...shape } = piece;
      formats[f.key] = { ...shape, url: piece.url };
    }
    return {
      name,
      alternativeText: info.alternativeText ?? null,
      caption: info.caption ?? null,
      width: main.width,
      height: main.height,
      formats: Object.keys(formats).length ? formats : null,
      hash,
      ext,
      mime: file.mime,
      size: main.size,
      url: main.url,
      previewUrl: null,
      provider: providerName,
      provider_metadata: main.provider_metadata ?? null,
      folderPath: '/',
    };
  }

  /** The stored pieces of a file record, to delete them. */
  function piecesOf(doc: Doc): ProviderFile[] {
    const main = {
      name: doc.name,
      hash: doc.hash,
      ext: doc.ext,
      mime: doc.mime,
      size: doc.size,
      url: doc.url,
      provider_metadata: doc.provider_metadata,
    } as ProviderFile;
    const formats = Object.values((doc.formats ?? {}) as Record<string, ProviderFile>);
    return [main, ...formats];
  }

  const service: UploadService = {
    async upload(uploads, infos, link) {
      if (uploads.length === 0) throw validationError('Files are empty');
      const files = await Promise.all(uploads.map(typed));
      // everything that can be refused is, before a byte is stored
      const target = link
        ? await linker.check(
            link,
            files.map((f) => f.mime),
          )
        : undefined;
      const stored: ProviderFile[] = [];
      try {
        const records: Record<string, unknown>[] = [];
        for (const [i, file] of files.entries()) records.push(await store(file, infos[i] ?? {}, stored));
        return await app.documents.transaction(async (docs, trx) => {
          const created: Doc[] = [];
          for (const data of records) created.push(await docs(FILE_UID).create({ data }));
          if (target)
            await linker.attach(
              docs,
              trx,
              target,
              created.map((d) => d.id as number),
            );
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
      const replacement = await typed(file);
      const stored: ProviderFile[] = [];
      let updated: Doc | null;
      try {
        const data = await store(replacement, { ...info, name: info.name ?? file.name }, stored);
        data.alternativeText = info.alternativeText !== undefined ? info.alternativeText : existing.alternativeText;
        data.caption = info.caption !== undefined ? info.caption : existing.caption;
        updated = await app.documents(FILE_UID).update({ documentId: existing.documentId as string, data });
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
      for (const key of ['name', 'alternativeText', 'caption'] as const)
        if (info[key] !== undefined) data[key] = info[key];
      return (await app.documents(FILE_UID).update({ documentId: existing.documentId as string, data }))!;
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
      return app.documents(FILE_UID).findFirst({ filters: resolveFilters(app.registry, FILE_UID, { id }) });
    },
  };
  return service;
}
