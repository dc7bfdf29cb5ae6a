import type { Knex } from 'knex';
import { createId } from '@paralleldrive/cuid2';
import type { Registry } from '../content-types/registry.ts';
import { isToMany, type ContentType } from '../content-types/types.ts';
import type { Pagination, PopulateTree, Status } from '../query/types.ts';
import { COMPONENT_ID_SEQUENCE } from '../../database/sync.ts';
import { prepareWrite } from './input.ts';
import { applyInverseWrites, enforceExclusiveTargets, resolveRelations } from './relations.ts';
import { populate } from './populate.ts';
import { inScope, ROW_COLUMNS, type Row, type Scope } from './rows.ts';
import { toDocument, type Doc } from './serialize.ts';
import { translateDatabaseError } from './db-errors.ts';

export type Action = 'findMany' | 'findOne' | 'findFirst' | 'count' | 'create' | 'update' | 'delete';
const WRITES = new Set<Action>(['create', 'update', 'delete']);

export interface ReadParams {
  populate?: PopulateTree;
  pagination?: Pagination;
  status?: Status;
  locale?: string;
}
export interface FindOneParams extends ReadParams { documentId: string }
export interface CreateParams extends ReadParams { data: Record<string, unknown> }
export interface UpdateParams extends CreateParams { documentId: string }
export interface DeleteParams { documentId: string; locale?: string; status?: Status }
export interface DeleteResult { documentId: string; entries: Doc[] }

type ParamsOf = {
  findMany: ReadParams; findFirst: ReadParams; count: ReadParams; findOne: FindOneParams;
  create: CreateParams; update: UpdateParams; delete: DeleteParams;
};
type ResultOf = {
  findMany: Doc[]; findFirst: Doc | null; count: number; findOne: Doc | null;
  create: Doc; update: Doc | null; delete: DeleteResult | null;
};

/** What a document-service middleware sees; `db` is the request's transaction for writes. */
export interface DocumentContext<A extends Action = Action> {
  uid: string;
  contentType: ContentType;
  action: A;
  params: ParamsOf[A];
  db: Knex;
}

/** Wraps every document-service call, Strapi-style: i18n, draft & publish and auth plug in here. */
export type DocumentMiddleware = (ctx: DocumentContext, next: () => Promise<unknown>) => Promise<unknown>;

export interface DocumentApi {
  findMany(params?: ReadParams): Promise<Doc[]>;
  findFirst(params?: ReadParams): Promise<Doc | null>;
  findOne(params: FindOneParams): Promise<Doc | null>;
  count(params?: ReadParams): Promise<number>;
  create(params: CreateParams): Promise<Doc>;
  update(params: UpdateParams): Promise<Doc | null>;
  delete(params: DeleteParams): Promise<DeleteResult | null>;
}

export interface DocumentService {
  (uid: string): DocumentApi;
  use(middleware: DocumentMiddleware): void;
}

const scopeOf = (p: { status?: Status; locale?: string }): Scope => ({ status: p.status ?? 'published', locale: p.locale ?? null });

/** The document service: the only read/write path to content, shared by REST, GraphQL and plugins. */
/** `db` is a getter: the service exists (and takes middleware) before the database is connected. */
export function createDocumentService(deps: { db: () => Knex; registry: Registry }): DocumentService {
  const { db, registry } = deps;
  const middlewares: DocumentMiddleware[] = [];

  async function read(ctx: DocumentContext, q: Knex.QueryBuilder, params: ReadParams): Promise<Doc[]> {
    const rows = (await inScope(q.select(ROW_COLUMNS), ctx.contentType, scopeOf(params))) as Row[];
    const docs = rows.map((row) => toDocument(ctx.contentType, row));
    if (params.populate && Object.keys(params.populate).length > 0) {
      const nodes = rows.map((row, i) => ({ attributes: ctx.contentType.attributes, raw: row.data, out: docs[i], documentId: row.document_id }));
      await populate({ db: ctx.db, registry, scope: scopeOf(params) }, nodes, params.populate);
    }
    return docs;
  }

  const table = (ctx: DocumentContext): Knex.QueryBuilder => ctx.db(ctx.contentType.collectionName);

  /** Give new component instances their ids: one statement for all of them. */
  async function assignComponentIds(trx: Knex, fresh: Array<Record<string, unknown>>): Promise<void> {
    if (fresh.length === 0) return;
    const { rows } = await trx.raw(`SELECT nextval(?) AS id FROM generate_series(1, ?)`, [COMPONENT_ID_SEQUENCE, fresh.length]);
    fresh.forEach((c, i) => { c.id = Number(rows[i].id); });
  }

  /** Validate the payload, resolve relations and write one row; returns the stored data. */
  async function write(ctx: DocumentContext, documentId: string, input: Record<string, unknown>, existing: Row | null): Promise<Record<string, unknown>> {
    const prepared = await prepareWrite(registry, ctx.contentType.attributes, input, existing?.data ?? null);
    const inverse = await resolveRelations(ctx.db, registry, prepared.relations, prepared.media);
    await assignComponentIds(ctx.db, prepared.newComponents);
    if (existing) {
      await table(ctx).where('id', existing.id).update({ data: prepared.data, updated_at: ctx.db.fn.now() });
    } else {
      const p = ctx.params as CreateParams;
      await table(ctx).insert({
        document_id: documentId,
        locale: ctx.contentType.pluginOptions.i18n?.localized ? (p.locale ?? null) : null,
        // without draft & publish a document is always published; drafts come with the D&P middleware
        published_at: ctx.db.fn.now(),
        data: prepared.data,
      });
    }
    const written = new Set(prepared.relations.filter((r) => r.holder === prepared.data).map((r) => r.key));
    await enforceExclusiveTargets(ctx.db, registry, ctx.uid, documentId, prepared.data, written);
    await applyInverseWrites(ctx.db, registry, documentId, inverse);
    return prepared.data;
  }

  const core: { [A in Action]: (ctx: DocumentContext<A>) => Promise<ResultOf[A]> } = {
    findMany(ctx) {
      const q = table(ctx).orderBy('id');
      const pg = ctx.params.pagination;
      if (pg) {
        q.offset(pg.start);
        if (pg.limit !== null) q.limit(pg.limit);
      }
      return read(ctx, q, ctx.params);
    },
    async findFirst(ctx) {
      return (await read(ctx, table(ctx).orderBy('id').limit(1), ctx.params))[0] ?? null;
    },
    async findOne(ctx) {
      return (await read(ctx, table(ctx).where('document_id', ctx.params.documentId).limit(1), ctx.params))[0] ?? null;
    },
    async count(ctx) {
      const row = await inScope(table(ctx).count({ n: '*' }), ctx.contentType, scopeOf(ctx.params)).first();
      return Number(row?.n ?? 0);
    },
    async create(ctx) {
      const documentId = createId();
      await write(ctx, documentId, ctx.params.data, null);
      return (await core.findOne({ ...ctx, action: 'findOne', params: { ...ctx.params, documentId } }))!;
    },
    async update(ctx) {
      const { documentId } = ctx.params;
      const q = table(ctx).select(ROW_COLUMNS).where('document_id', documentId).forUpdate().first();
      const existing = (await inScope(q, ctx.contentType, scopeOf(ctx.params))) as Row | undefined;
      if (!existing) return null;
      await write(ctx, documentId, ctx.params.data, existing);
      return core.findOne({ ...ctx, action: 'findOne', params: { ...ctx.params, documentId } });
    },
    async delete(ctx) {
      const { documentId } = ctx.params;
      const q = table(ctx).where('document_id', documentId);
      if (ctx.contentType.pluginOptions.i18n?.localized && ctx.params.locale) q.where('locale', ctx.params.locale);
      const rows = (await q.clone().select(ROW_COLUMNS).forUpdate()) as Row[];
      if (rows.length === 0) return null;
      await q.delete();
      await forgetDocument(ctx.db, registry, ctx.uid, documentId);
      return { documentId, entries: rows.map((r) => toDocument(ctx.contentType, r)) };
    },
  };

  function run<A extends Action>(uid: string, action: A, params: ParamsOf[A]): Promise<ResultOf[A]> {
    const contentType = registry.contentType(uid);
    const exec = async (conn: Knex): Promise<ResultOf[A]> => {
      const ctx: DocumentContext<A> = { uid, contentType, action, params, db: conn };
      const dispatch = (i: number): Promise<unknown> =>
        i < middlewares.length
          ? middlewares[i](ctx as DocumentContext, () => dispatch(i + 1))
          : (core[action] as (c: DocumentContext<A>) => Promise<ResultOf[A]>)(ctx);
      return (await dispatch(0)) as ResultOf[A];
    };
    if (!WRITES.has(action)) {
      return exec(db()).catch((err: unknown) => {
        throw translateDatabaseError(err, contentType);
      });
    }
    // one transaction per write: a failure anywhere leaves nothing half-written
    return db().transaction((trx) => exec(trx)).catch((err: unknown) => {
      throw translateDatabaseError(err, contentType);
    });
  }

  const service = ((uid: string): DocumentApi => ({
    findMany: (params = {}) => run(uid, 'findMany', params),
    findFirst: (params = {}) => run(uid, 'findFirst', params),
    findOne: (params) => run(uid, 'findOne', params),
    count: (params = {}) => run(uid, 'count', params),
    create: (params) => run(uid, 'create', params),
    update: (params) => run(uid, 'update', params),
    delete: (params) => run(uid, 'delete', params),
  })) as DocumentService;
  service.use = (mw) => { middlewares.push(mw); };
  return service;
}

/**
 * Remove a deleted document from the owning relations that point at it, so lists and
 * counts of those relations stay exact (one statement per referencing attribute).
 */
async function forgetDocument(db: Knex, registry: Registry, uid: string, documentId: string): Promise<void> {
  const stillThere = await db(registry.contentType(uid).collectionName).first('id').where('document_id', documentId);
  if (stillThere) return; // other locales of the document remain
  for (const ref of registry.relationsTo(uid)) {
    const t = registry.contentType(ref.uid).collectionName;
    const path = db.raw('ARRAY[?]::text[]', [ref.attribute]);
    if (isToMany(ref.attr)) {
      await db(t).whereRaw('data -> ? \\? ?', [ref.attribute, documentId])
        .update({ data: db.raw('jsonb_set(data, ?, (data -> ?) - ?)', [path, ref.attribute, documentId]) });
    } else {
      await db(t).whereRaw('data ->> ? = ?', [ref.attribute, documentId])
        .update({ data: db.raw(`jsonb_set(data, ?, 'null'::jsonb)`, [path]) });
    }
  }
}
