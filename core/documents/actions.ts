import type { Knex } from 'knex';
import { newDocumentId } from './document-id.ts';
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, isLocalized, isToMany } from '../content-types/types.ts';
import { applicationError } from '../errors.ts';
import { COMPONENT_ID_SEQUENCE } from '../../database/sync.ts';
import { prepareWrite } from './input.ts';
import { checkPublishable } from './publish-check.ts';
import { copyComponents } from './component-copies.ts';
import { uniqueViolation } from './db-errors.ts';
import { applyInverseWrites, enforceExclusiveTargets, resolveRelations } from './relations.ts';
import { rankOwner } from './inverse-order.ts';
import { matching, readDocuments, type ReadRequest } from './read.ts';
import { inScope, whereLocale, type Row } from './rows.ts';
import type { Scope } from '../query/scope-sql.ts';
import { COLUMNS, ROW_COLUMNS, type SqlFragment } from '../query/sql.ts';
import {
  filesWithout,
  holds,
  holdsFile,
  JSON_NULL,
  listWithout,
  setAttribute,
  withoutRank,
} from '../query/jsonb-writes.ts';
import { toDocument, type Doc } from './serialize.ts';
import type { Action, DocumentContext, ReadParams, ResultOf, VersionParams } from './types.ts';

export type CoreActions = { [A in Action]: (ctx: DocumentContext<A>) => Promise<ResultOf[A]> };

const scopeOf = (p: { status?: Scope['status']; locale?: string }): Scope => ({
  status: p.status ?? 'draft',
  locale: p.locale ?? null,
});

/** The locale a call asked for, when it names one (i18n resolves it for every type). */
const localeParam = (ctx: DocumentContext): string | null => {
  const locale = (ctx.params as { locale?: string }).locale;
  return locale && locale !== '*' ? locale : null;
};

/** Rows of exactly this locale (null: the rows of a type that is not localized). */
const ofLocale = (q: Knex.QueryBuilder, locale: string | null): Knex.QueryBuilder =>
  locale === null ? q.whereNull(COLUMNS.locale) : q.where(COLUMNS.locale, locale);

/**
 * The row-level implementation of every action: what is left once middleware (draft &
 * publish, i18n, …) has decided which version a call is about. `create` and `update` write
 * exactly the version named by `status` and `locale`.
 */
export function createCoreActions(registry: Registry): CoreActions {
  const table = (ctx: DocumentContext): Knex.QueryBuilder => ctx.db(ctx.contentType.collectionName);

  /** A read (see read.ts) of `params` on the call's content-type. */
  const request = (ctx: DocumentContext, params: ReadParams): ReadRequest => ({
    db: ctx.db,
    registry,
    ct: ctx.contentType,
    params,
    scope: scopeOf(params),
  });
  /** A read, as one statement. */
  const read = (ctx: DocumentContext, params: ReadParams, more: Partial<ReadRequest>) =>
    readDocuments({ ...request(ctx, params), ...more });

  /** Give new component instances their ids: one statement for all of them. */
  async function assignComponentIds(trx: Knex, fresh: Array<Record<string, unknown>>): Promise<void> {
    if (fresh.length === 0) return;
    const { rows } = await trx.raw(`SELECT nextval(?) AS id FROM generate_series(1, ?)`, [
      COMPONENT_ID_SEQUENCE,
      fresh.length,
    ]);
    fresh.forEach((c, i) => {
      c.id = Number(rows[i].id);
    });
  }

  /** `data` for another version of its document: the same values in components of its own. */
  async function versionCopy(ctx: DocumentContext, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const copy = copyComponents(registry, ctx.contentType.attributes, data);
    await assignComponentIds(ctx.db, copy.fresh);
    return copy.data;
  }

  /** Validate the payload, resolve relations and write one row. */
  async function write(
    ctx: DocumentContext,
    documentId: string,
    input: Record<string, unknown>,
    target:
      | { row: Row }
      | { insert: { locale: string | null; publishedAt: 'now' | null; base?: Record<string, unknown> } },
  ): Promise<number> {
    const existing = 'row' in target ? target.row.data : (target.insert.base ?? null);
    // a draft is checked leniently: publishing it checks the rest
    const draft = 'row' in target ? target.row.published_at === null : target.insert.publishedAt === null;
    const prepared = await prepareWrite(
      registry,
      ctx.contentType.attributes,
      input,
      existing,
      'row' in target ? 'update' : 'create',
      { draft },
    );
    const { inverse, owned } = await resolveRelations(ctx.db, registry, prepared.relations, prepared.media);
    const locale = 'row' in target ? target.row.locale : target.insert.locale;
    await rankOwner(ctx.db, registry, prepared.data, owned);
    await assignComponentIds(ctx.db, prepared.newComponents);
    let id: number;
    try {
      if ('row' in target) {
        id = target.row.id;
        await table(ctx)
          .where(COLUMNS.id, id)
          .update({ [COLUMNS.data]: prepared.data, [COLUMNS.updatedAt]: ctx.db.fn.now() });
      } else {
        const [inserted] = await table(ctx)
          .insert({
            [COLUMNS.documentId]: documentId,
            locale: target.insert.locale,
            [COLUMNS.publishedAt]: target.insert.publishedAt === 'now' ? ctx.db.fn.now() : null,
            data: prepared.data,
          })
          .returning(COLUMNS.id);
        id = Number((inserted as { id: number }).id);
      }
    } catch (err) {
      throw uniqueViolation(err, ctx.contentType, prepared.data) ?? err;
    }
    const written = new Set(prepared.relations.filter((r) => r.holder === prepared.data).map((r) => r.key));
    await enforceExclusiveTargets(ctx.db, registry, ctx.uid, documentId, prepared.data, written, locale);
    await applyInverseWrites(ctx.db, registry, documentId, inverse, locale ?? localeParam(ctx));
    return id;
  }

  /**
   * The written version as a caller asking for no field sees it, `{ id, documentId }`, without
   * reading it back: draft & publish asks so of the draft it is about to publish (draft-publish.ts),
   * on every REST write of such a type. Null when the caller wants more.
   */
  const bare = (params: { fields?: string[]; populate?: unknown }, id: number, documentId: string): Doc | null =>
    params.fields?.length === 0 && (params.populate == null || Object.keys(params.populate as object).length === 0)
      ? { id, documentId }
      : null;

  // rows a write changes but keeps take NO KEY UPDATE: it does not wait for (nor block) a write
  // that only holds them as a relation target (relations.ts's KEY SHARE); a delete takes UPDATE
  const rowsOf = (
    ctx: DocumentContext,
    documentId: string,
    locale: string | undefined,
    published: boolean,
  ): Promise<Row[]> =>
    inScope(table(ctx).select(ROW_COLUMNS).where(COLUMNS.documentId, documentId), ctx.contentType, {
      status: published ? 'published' : 'draft',
      locale,
    })
      .orderBy(COLUMNS.id)
      .forNoKeyUpdate();

  function requireDraftAndPublish(ctx: DocumentContext): void {
    if (!ctx.contentType.options.draftAndPublish)
      throw applicationError(`Draft & publish is not enabled for ${ctx.uid}`);
  }

  /** The document after a version change, in the version the action leaves in front. */
  const after = (
    ctx: DocumentContext,
    p: VersionParams,
    status: Scope['status'],
    locale: string | null,
  ): Promise<Doc | null> =>
    core.findOne({
      ...ctx,
      action: 'findOne',
      params: {
        documentId: p.documentId,
        status,
        locale: locale ?? undefined,
        populate: p.populate,
        fields: p.fields,
        raw: p.raw,
      },
    });

  const core: CoreActions = {
    async findMany(ctx) {
      const pg = ctx.params.pagination;
      return (await read(ctx, ctx.params, { offset: pg?.start, limit: pg?.limit })).docs;
    },
    async findPage(ctx) {
      const pg = ctx.params.pagination;
      const { docs, total, json } = await read(ctx, ctx.params, {
        offset: pg?.start,
        limit: pg?.limit,
        count: pg?.withCount !== false,
        json: ctx.params.json === true,
      });
      return json === undefined ? { results: docs, total } : { results: [], total, json };
    },
    async findFirst(ctx) {
      return (await read(ctx, ctx.params, { limit: 1 })).docs[0] ?? null;
    },
    async findOne(ctx) {
      return (await read(ctx, ctx.params, { documentId: ctx.params.documentId, limit: 1 })).docs[0] ?? null;
    },
    async count(ctx) {
      const row = await matching(request(ctx, ctx.params), 'c').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
    async create(ctx) {
      const p = ctx.params;
      const documentId = p.documentId ?? newDocumentId();
      const status = ctx.contentType.options.draftAndPublish ? (p.status ?? 'draft') : 'published';
      const locale = isLocalized(ctx.contentType) && p.locale && p.locale !== '*' ? p.locale : null;
      const id = await write(ctx, documentId, p.data, {
        insert: { locale, publishedAt: status === 'draft' ? null : 'now', base: p.base },
      });
      const written = bare(p, id, documentId);
      if (written) return written;
      return (await core.findOne({
        ...ctx,
        action: 'findOne',
        params: { ...p, documentId, status, locale: locale ?? undefined },
      }))!;
    },
    async update(ctx) {
      const { documentId } = ctx.params;
      const q = table(ctx)
        .select(ROW_COLUMNS)
        .where(COLUMNS.documentId, documentId)
        .orderBy(COLUMNS.id)
        .forNoKeyUpdate()
        .first();
      const existing = (await inScope(q, ctx.contentType, scopeOf(ctx.params))) as Row | undefined;
      if (!existing) return null;
      const id = await write(ctx, documentId, ctx.params.data, { row: existing });
      const written = bare(ctx.params, id, documentId);
      if (written) return written;
      return core.findOne({
        ...ctx,
        action: 'findOne',
        params: { ...ctx.params, documentId, locale: existing.locale ?? undefined },
      });
    },
    async delete(ctx) {
      const { documentId } = ctx.params;
      const q = whereLocale(table(ctx).where(COLUMNS.documentId, documentId), ctx.contentType, ctx.params.locale);
      const rows = (await q.clone().select(ROW_COLUMNS).orderBy(COLUMNS.id).forUpdate()) as Row[];
      if (rows.length === 0) return null;
      await q.delete();
      await forgetDocument(ctx.db, registry, ctx.uid, documentId, rows);
      return { documentId, entries: rows.map((r) => toDocument(ctx.contentType, r, { raw: ctx.params.raw === true })) };
    },
    async publish(ctx) {
      requireDraftAndPublish(ctx);
      const p = ctx.params;
      const drafts = await rowsOf(ctx, p.documentId, p.locale, false);
      if (drafts.length === 0) return null;
      for (const draft of drafts) {
        // a draft was written leniently: it becomes published only if it passes every rule
        await checkPublishable(ctx.db, registry, ctx.contentType, p.documentId, draft.locale, draft.data);
        // the published version is a fresh row (its own id, and components of its own), as in
        // Strapi 5: the previous one, if any, is rewritten with a new id (one UPDATE rather than a
        // DELETE and an INSERT: the counts' triggers see a row that kept its scope and, mostly,
        // its values, and add nothing; a republish cost two statements' deltas)
        const version = {
          [COLUMNS.publishedAt]: ctx.db.fn.now(),
          data: await versionCopy(ctx, draft.data),
          [COLUMNS.createdAt]: draft.created_at,
          [COLUMNS.updatedAt]: draft.updated_at,
        };
        const unique = (err: unknown): never => {
          throw uniqueViolation(err, ctx.contentType, draft.data) ?? err;
        };
        const replaced = await ofLocale(table(ctx).where(COLUMNS.documentId, p.documentId), draft.locale)
          .whereNotNull(COLUMNS.publishedAt)
          .update({ [COLUMNS.id]: ctx.db.raw('DEFAULT'), ...version })
          .catch(unique);
        if (replaced === 0)
          await table(ctx)
            .insert({ [COLUMNS.documentId]: p.documentId, locale: draft.locale, ...version })
            .catch(unique);
      }
      return after(ctx, p, 'published', drafts[0].locale);
    },
    async unpublish(ctx) {
      requireDraftAndPublish(ctx);
      const p = ctx.params;
      const drafts = await rowsOf(ctx, p.documentId, p.locale, false);
      if (drafts.length === 0) return null;
      await whereLocale(
        table(ctx).where(COLUMNS.documentId, p.documentId).whereNotNull(COLUMNS.publishedAt),
        ctx.contentType,
        p.locale,
      ).delete();
      return after(ctx, p, 'draft', drafts[0].locale);
    },
    async discardDraft(ctx) {
      requireDraftAndPublish(ctx);
      const p = ctx.params;
      const published = await rowsOf(ctx, p.documentId, p.locale, true);
      if (published.length === 0) {
        const drafts = await rowsOf(ctx, p.documentId, p.locale, false);
        if (drafts.length === 0) return null;
        throw applicationError('The document has no published version to restore the draft from');
      }
      for (const row of published) {
        await ofLocale(table(ctx).where(COLUMNS.documentId, p.documentId), row.locale)
          .whereNull(COLUMNS.publishedAt)
          .update({ [COLUMNS.data]: await versionCopy(ctx, row.data), [COLUMNS.updatedAt]: ctx.db.fn.now() });
      }
      return after(ctx, p, 'draft', published[0].locale);
    },
  };
  return core;
}

/**
 * Remove a deleted document from the owning relations that point at it (and the ranks they
 * keep it, inverse-order.ts), so lists and counts of those relations stay exact (one statement
 * per referencing attribute). A deleted file (`rows`: its deleted rows) also leaves the media
 * attributes that held it.
 */
async function forgetDocument(
  db: Knex,
  registry: Registry,
  uid: string,
  documentId: string,
  rows: Row[],
): Promise<void> {
  // media hold row ids, not documentIds: those rows are gone whatever other locales remain
  if (uid === FILE_UID)
    await forgetFiles(
      db,
      registry,
      rows.map((r) => Number(r.id)),
    );
  const stillThere = await db(registry.contentType(uid).collectionName)
    .first(COLUMNS.id)
    .where(COLUMNS.documentId, documentId);
  if (stillThere) return; // other locales of the document remain
  for (const ref of registry.relationsTo(uid)) {
    const toMany = isToMany(ref.attr);
    const held = holds(ref.attribute, documentId, toMany);
    const value = toMany ? listWithout(ref.attribute, documentId) : JSON_NULL;
    const write = withoutRank(setAttribute(ref.attribute, value), ref.attribute, documentId);
    await db(registry.contentType(ref.uid).collectionName)
      .whereRaw(held.sql, held.bindings)
      .update({ [COLUMNS.data]: raw(db, write) });
  }
}

/** Take deleted file ids out of every media attribute (single → null, multiple → the rest, in order). */
async function forgetFiles(db: Knex, registry: Registry, ids: number[]): Promise<void> {
  if (ids.length === 0) return; // an empty `where` below would select every row
  for (const ref of registry.mediaAttributes()) {
    const multiple = ref.attr.multiple === true;
    const holders = db(registry.contentType(ref.uid).collectionName).where((w) => {
      for (const id of ids) {
        const held = holdsFile(ref.attribute, id, multiple);
        w.orWhereRaw(held.sql, held.bindings);
      }
    });
    const value = multiple ? filesWithout(ref.attribute, ids) : JSON_NULL;
    await holders.update({ [COLUMNS.data]: raw(db, setAttribute(ref.attribute, value)) });
  }
}

/** A fragment as a knex raw value, for an update's `data`. */
const raw = (db: Knex, f: SqlFragment): Knex.Raw => db.raw(f.sql, f.bindings);
