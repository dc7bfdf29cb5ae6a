import {
  type App,
  authorizeQuery,
  type ContentType,
  type Doc,
  type DocumentApi,
  isPlainObject,
  noteDocumentRead,
  noteQueryRead,
  notFound,
  paginationMeta,
  parseRestQuery,
  type Query,
  type QueryConfig,
  type RequestContext,
  sanitizeInput,
  validationError,
} from '../../core/index.ts';
import { wantsV4, toV4 } from './v4.ts';

export type ControllerName =
  | 'find'
  | 'findOne'
  | 'create'
  | 'update'
  | 'delete'
  | 'publish'
  | 'unpublish'
  | 'discardDraft';
export type Controllers = Record<ControllerName, (ctx: RequestContext) => Promise<void>>;

/** The body's `data`, which must be an object (Strapi's exact message otherwise). */
function bodyData(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body as unknown;
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data)) throw validationError('Missing "data" payload in the request body');
  return data;
}

/**
 * Controllers of one content-type: parse the query, call the document service (whose
 * middleware applies draft & publish and i18n), sanitize, and answer `{data, meta}`, in
 * Strapi 4's shape when the request asks for it (`Strapi-Response-Format: v4`).
 */
export function createControllers(app: App, ct: ContentType, queries: QueryConfig): Controllers {
  const docs = app.documents(ct.uid);
  const single = ct.kind === 'singleType';
  // relations the caller may not `find` are not populated (brief, Authentication 7); private and
  // password attributes are left out in SQL, as by every read that does not ask for raw rows
  const query = (ctx: RequestContext): Query => {
    const parsed = parseRestQuery(app.registry, ct.uid, ctx.state.query, queries);
    return authorizeQuery(app.registry, ct.uid, parsed, ctx.state.auth);
  };
  /** a read's query, its dependencies noted for the response cache */
  const readQuery = (ctx: RequestContext): Query => {
    const q = query(ctx);
    noteQueryRead(ctx.state, app.registry, ct.uid, q);
    return q;
  };
  // a write answers the document it wrote: `_q` is for reads (Strapi ignores it on writes too)
  const writeQuery = (ctx: RequestContext): Query => ({ ...query(ctx), search: undefined });
  const input = (ctx: RequestContext) => sanitizeInput(app.registry, ct.uid, bodyData(ctx));

  const present = (ctx: RequestContext, doc: Doc): Doc => (wantsV4(ctx) ? toV4(app.registry, ct.uid, doc) : doc);
  const answer = (ctx: RequestContext, doc: Doc | null, status = 200): void => {
    if (!doc) throw notFound();
    ctx.status = status;
    ctx.body = { data: present(ctx, doc), meta: {} };
  };

  /** A single type's one document (in any version or locale), if it has one yet. */
  async function singleDocumentId(api: DocumentApi = docs): Promise<string | undefined> {
    // only its id is needed, not the document built
    const existing = await api.findFirst({ status: 'draft', locale: '*', fields: [] });
    return existing?.documentId as string | undefined;
  }

  /** The documentId a request is about: from the path, or a single type's one document. */
  const documentIdOf = (ctx: RequestContext): Promise<string | undefined> =>
    single ? singleDocumentId() : Promise.resolve(ctx.params.documentId);

  const version =
    (action: 'publish' | 'unpublish' | 'discardDraft') =>
    async (ctx: RequestContext): Promise<void> => {
      const q = query(ctx);
      const documentId = await documentIdOf(ctx);
      const { locale, populate, fields } = q;
      answer(ctx, documentId ? await docs[action]({ documentId, locale, populate, fields }) : null);
    };

  return {
    async find(ctx) {
      const q = readQuery(ctx);
      const v4 = wantsV4(ctx);
      // the v4 shape is a transform of parsed documents; otherwise PostgreSQL's JSON goes out as it is
      const { results, total, json } = await docs.findPage({ ...q, json: !v4 });
      const meta = { pagination: paginationMeta(q.pagination, total) };
      if (json !== undefined) {
        ctx.type = 'application/json';
        ctx.body = `{"data":${json},"meta":${JSON.stringify(meta)}}`;
        return;
      }
      ctx.body = { data: results.map((d) => present(ctx, d)), meta };
    },
    async findOne(ctx) {
      if (single) {
        answer(ctx, await docs.findFirst(readQuery(ctx)));
        return;
      }
      const q = query(ctx);
      const { documentId } = ctx.params;
      // one document's answer: other documents' writes leave it cached
      noteDocumentRead(ctx.state, app.registry, ct.uid, documentId, q);
      answer(ctx, await docs.findOne({ ...q, documentId }));
    },
    async create(ctx) {
      const q = writeQuery(ctx);
      answer(ctx, await docs.create({ ...q, data: input(ctx) }), 201);
    },
    async update(ctx) {
      const q = writeQuery(ctx);
      const data = input(ctx);
      if (!single) {
        answer(ctx, await docs.update({ ...q, documentId: ctx.params.documentId, data }));
        return;
      }
      // PUT on a single type creates it the first time: looked up and written under the type's
      // lock, so parallel first PUTs make one document (the others update it)
      answer(
        ctx,
        await app.documents.transaction(async (documents, trx) => {
          await app.documents.lock(trx, ct.uid);
          const documentId = await singleDocumentId(documents(ct.uid));
          const api = documents(ct.uid);
          return documentId ? api.update({ ...q, documentId, data }) : api.create({ ...q, data });
        }),
      );
    },
    async delete(ctx) {
      const q = query(ctx);
      const documentId = await documentIdOf(ctx);
      const deleted = documentId ? await docs.delete({ documentId, locale: q.locale }) : null;
      if (!deleted) throw notFound();
      ctx.status = 204;
      ctx.body = null;
    },
    publish: version('publish'),
    unpublish: version('unpublish'),
    discardDraft: version('discardDraft'),
  };
}
