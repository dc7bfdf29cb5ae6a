import {
  type App,
  type Doc,
  DOCUMENT_ID,
  FILE_UID,
  forbidden,
  isPlainObject,
  noteQueryRead,
  noteRead,
  notFound,
  parseRestQuery,
  type QueryConfig,
  type RequestContext,
  validationError,
  type Pagination,
  authorizeQuery,
} from '../../core/index.ts';
import { parseMultipart } from './multipart.ts';
import type { Link } from './link.ts';
import type { FileInfo, UploadService } from './service.ts';

/**
 * A file as the upload routes answer it, with Strapi's `isUrlSigned` (public files are not).
 * Private fields are already out: the document service leaves them out of every read.
 */
const present = (doc: Doc): Doc => ({ ...doc, isUrlSigned: false });

function fileId(raw: unknown): number {
  if (typeof raw !== 'string' || !/^\d{1,15}$/.test(raw) || Number(raw) < 1)
    throw validationError('Invalid file id', { key: 'id' });
  return Number(raw);
}

/** `fileInfo`: one JSON object per file (the field repeated), or one JSON array for all of them. */
function fileInfos(values: string[] | undefined): FileInfo[] {
  const out: FileInfo[] = [];
  for (const text of values ?? []) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw validationError('fileInfo must be JSON', { key: 'fileInfo' });
    }
    for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!isPlainObject(item))
        throw validationError('fileInfo must be an object (or an array of objects)', { key: 'fileInfo' });
      const info: FileInfo = {};
      for (const key of ['name', 'alternativeText', 'caption'] as const) {
        const v = item[key];
        if (v === undefined) continue;
        if (key === 'name' ? typeof v !== 'string' || v === '' : v !== null && typeof v !== 'string') {
          throw validationError(`fileInfo.${key} must be a string`, { key: `fileInfo.${key}` });
        }
        if (typeof v === 'string' && (v.length > 10_000 || v.includes('\u0000')))
          throw validationError(`fileInfo.${key} is not a valid text`, { key: `fileInfo.${key}` });
        info[key] = v as string;
      }
      out.push(info);
    }
  }
  return out;
}

/**
 * `ref`, `refId` and `field` together attach the uploads to a document's media attribute;
 * `?locale=` picks the localization a documentId means (as on PUT).
 */
function linkOf(fields: Map<string, string[]>, query: Record<string, unknown>): Link | undefined {
  const [ref, refId, field] = ['ref', 'refId', 'field'].map((k) => fields.get(k)?.[0]);
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  if (!ref || !refId || !field) throw validationError('ref, refId and field go together', { key: 'ref' });
  // a row id or a documentId: anything else (a NUL, say) names no document and never reaches SQL
  if (!/^\d{1,15}$/.test(refId) && !DOCUMENT_ID.test(refId)) {
    throw validationError('Invalid refId: expected a row id or a documentId', { key: 'refId' });
  }
  const { locale } = query;
  if (locale !== undefined && typeof locale !== 'string') {
    throw validationError('Invalid locale', { key: 'locale', source: 'query' });
  }
  return { ref, refId, field, locale };
}

/**
 * Linking writes the target document: it needs what `PUT` of that document needs (`<uid>.update`),
 * not only the upload permission. Every route has auth state (an open API's allows everything).
 */
function requireUpdate(ctx: RequestContext, link: Link): void {
  const auth = ctx.state.auth;
  if (!auth?.allows(`${link.ref}.update`)) throw forbidden();
}

/** The upload routes, Strapi's content-API shapes: bare arrays and objects, no `{data, meta}`. */
export function createUploadControllers(app: App, service: UploadService, sizeLimit: number, queries: QueryConfig) {
  // Strapi lists every file unless pagination is asked for: here, as many as `maxLimit` allows
  const unpaged: Pagination = { start: 0, limit: queries.pagination.maxLimit, style: 'page', withCount: false };
  return {
    async upload(ctx: RequestContext): Promise<void> {
      const id = ctx.state.query.id;
      const { files, fields } = await parseMultipart(ctx.req, sizeLimit);
      const infos = fileInfos(fields.get('fileInfo'));
      if (id !== undefined) {
        // with ?id=: replace the file (one upload) or only update its information (none)
        if (files.length > 1) throw validationError('Only one file can replace an existing one');
        const doc =
          files.length === 1
            ? await service.replace(fileId(id), files[0], infos[0] ?? {})
            : await service.updateInfo(fileId(id), infos[0] ?? {});
        ctx.body = present(doc);
        return;
      }
      const link = linkOf(fields, ctx.state.query);
      if (link) requireUpdate(ctx, link);
      const created = await service.upload(files, infos, link);
      ctx.status = 201;
      ctx.body = created.map((d) => present(d));
    },
    async find(ctx: RequestContext): Promise<void> {
      // the path every list takes: parse, then what the caller may read, then one bounded read
      const parsed = parseRestQuery(app.registry, FILE_UID, ctx.state.query, queries);
      const q = authorizeQuery(app.registry, FILE_UID, parsed, ctx.state.auth);
      noteQueryRead(ctx.state, app.registry, FILE_UID, q);
      const pagination = ctx.state.query.pagination === undefined ? unpaged : q.pagination;
      const docs = await app.documents(FILE_UID).findMany({ ...q, pagination });
      ctx.body = docs.map((d) => present(d));
    },
    async findOne(ctx: RequestContext): Promise<void> {
      noteRead(ctx.state, [FILE_UID]);
      const doc = await service.findById(fileId(ctx.params.id));
      if (!doc) throw notFound('file.notFound');
      ctx.body = present(doc);
    },
    async destroy(ctx: RequestContext): Promise<void> {
      const doc = await service.remove(fileId(ctx.params.id));
      if (!doc) throw notFound('file.notFound');
      ctx.body = present(doc);
    },
  };
}
