import { isPlainObject } from '../../core/config/merge.ts';
import { notFound, validationError } from '../../core/errors.ts';
import type { App } from '../../core/kernel/app.ts';
import type { ContentType } from '../../core/content-types/types.ts';
import type { RequestContext } from '../../core/http/server.ts';
import { paginationMeta, type PaginationConfig } from '../../core/query/pagination.ts';
import type { Doc } from '../../core/documents/serialize.ts';
import { parseRestQuery } from './query.ts';
import { sanitizeInput, sanitizeOutput } from './sanitize.ts';

export interface Controllers {
  find(ctx: RequestContext): Promise<void>;
  findOne(ctx: RequestContext): Promise<void>;
  create(ctx: RequestContext): Promise<void>;
  update(ctx: RequestContext): Promise<void>;
  delete(ctx: RequestContext): Promise<void>;
}

/** The body's `data`, which must be an object (Strapi's exact message otherwise). */
function bodyData(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.request.body as unknown;
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data)) throw validationError('Missing "data" payload in the request body');
  return data;
}

/** Controllers of one content-type: parse, call the document service, sanitize, wrap in `{data, meta}`. */
export function createControllers(app: App, ct: ContentType, pagination: PaginationConfig): Controllers {
  const docs = app.documents(ct.uid);
  const query = (ctx: RequestContext) => parseRestQuery(app.registry, ct.uid, ctx.state.query, pagination);
  const out = (doc: Doc): Doc => sanitizeOutput(app.registry, ct.uid, doc);
  const input = (ctx: RequestContext) => sanitizeInput(app.registry, ct.uid, bodyData(ctx));
  const single = ct.kind === 'singleType';

  /** a single type's document, or the one addressed by the path */
  const target = async (ctx: RequestContext, q: ReturnType<typeof query>): Promise<Doc | null> =>
    single ? docs.findFirst(q) : docs.findOne({ ...q, documentId: ctx.params.documentId });

  return {
    async find(ctx) {
      const q = query(ctx);
      const [results, total] = await Promise.all([
        docs.findMany(q),
        q.pagination.withCount ? docs.count(q) : Promise.resolve(null),
      ]);
      ctx.body = { data: results.map(out), meta: { pagination: paginationMeta(q.pagination, total) } };
    },
    async findOne(ctx) {
      const doc = await target(ctx, query(ctx));
      if (!doc) throw notFound();
      ctx.body = { data: out(doc), meta: {} };
    },
    async create(ctx) {
      const q = query(ctx);
      const doc = await docs.create({ ...q, data: input(ctx) });
      ctx.status = 201;
      ctx.body = { data: out(doc), meta: {} };
    },
    async update(ctx) {
      const q = query(ctx);
      const data = input(ctx);
      let doc: Doc | null;
      if (single) {
        // PUT on a single type creates it the first time
        const existing = await docs.findFirst({ status: q.status, locale: q.locale });
        doc = existing
          ? await docs.update({ ...q, documentId: existing.documentId as string, data })
          : await docs.create({ ...q, data });
      } else {
        doc = await docs.update({ ...q, documentId: ctx.params.documentId, data });
      }
      if (!doc) throw notFound();
      ctx.body = { data: out(doc), meta: {} };
    },
    async delete(ctx) {
      const q = query(ctx);
      const existing = single ? await docs.findFirst({ status: q.status, locale: q.locale }) : null;
      const documentId = single ? (existing?.documentId as string | undefined) : ctx.params.documentId;
      const deleted = documentId ? await docs.delete({ documentId, locale: q.locale }) : null;
      if (!deleted) throw notFound();
      ctx.status = 204;
      ctx.body = null;
    },
  };
}
