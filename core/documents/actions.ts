import type { Knex } from 'knex';
import { newDocumentId } from './document-id.ts';
import type { Registry } from '../content-types/registry.ts';
import { isLocalized } from '../content-types/types.ts';
import { applicationError } from '../errors.ts';
import { COMPONENT_ID_SEQUENCE } from '../../database/sync.ts';
import { prepareWrite } from './input.ts';
import { createIdPool } from './id-pool.ts';
import {
  createWrittenDrafts,
  LOCALE_EXISTS,
  RETURNED,
  returned,
  VERSION_EXISTS,
  type WrittenDraft,
  type WrittenRow,
} from './written.ts';
import { createPublishDraft, ofLocale } from './publish-version.ts';
import { forgetDocument } from './forget.ts';
import { copyComponents } from './component-copies.ts';
import { uniqueViolation } from './db-errors.ts';
import { applyInverseWrites, enforceExclusiveTargets, resolveRelations } from './relations.ts';
import { rankOwner } from './inverse-order.ts';
import { matching, readDocuments, type ReadRequest } from './read.ts';
import { createReadStatements } from './read-statements.ts';
import { createRenderVersions } from '../query/render-sql.ts';
import { inScope, whereLocale, type Row } from './rows.ts';
import type { Scope } from '../query/scope-sql.ts';
import { COLUMNS, ROW_COLUMNS } from '../query/sql.ts';
import { toDocument, type Doc } from './serialize.ts';
import type { Action, DocumentContext, ReadParams, ResultOf, VersionParams } from './types.ts';
import type { PopulateTree } from '../query/types.ts';

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

/** A read asking for no field list and no relation: every answer of it is the row's own scalars. */
const plain = (params: { fields?: string[]; populate?: PopulateTree }): boolean =>
  params.fields === undefined && (params.populate == null || Object.keys(params.populate).length === 0);

/**
 * The row-level implementation of every action: what is left once middleware (draft &
 * publish, i18n, …) has decided which version a call is about. `create` and `update` write
 * exactly the version named by `status` and `locale`.
 */
export function createCoreActions(registry: Registry): CoreActions {
  const table = (ctx: DocumentContext): Knex.QueryBuilder => ctx.db(ctx.contentType.collectionName);
  // reads' SQL kept by shape (read-statements.ts), and the versions their kept texts are checked against
  const statements = createReadStatements();
  const renderVersion = createRenderVersions(registry);

  /** A read (see read.ts) of `params` on the call's content-type. */
  const request = (ctx: DocumentContext, params: ReadParams): ReadRequest => ({
    db: ctx.db,
    registry,
    ct: ctx.contentType,
    params,
    scope: scopeOf(params),
    statements,
    renderVersion,
  });
  /** A read, as one statement. */
  const read = (ctx: DocumentContext, params: ReadParams, more: Partial<ReadRequest>) =>
    readDocuments({ ...request(ctx, params), ...more });

  // component instance ids, from a block this instance keeps (id-pool.ts)
  const componentIds = createIdPool(COMPONENT_ID_SEQUENCE);
  // the draft each transaction's last write left, for a publish that follows it (written.ts)
  const writtenDrafts = createWrittenDrafts();

  /** Give new component instances their ids. */
  async function assignComponentIds(trx: Knex, fresh: Array<Record<string, unknown>>): Promise<void> {
    if (fresh.length === 0) return;
    const ids = await componentIds.take(trx, fresh.length);
    fresh.forEach((c, i) => {
      c.id = ids[i];
    });
  }

  /** `data` for another version of its document: the same values in components of its own. */
  async function versionCopy(ctx: DocumentContext, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const copy = copyComponents(registry, ctx.contentType.attributes, data);
    await assignComponentIds(ctx.db, copy.fresh);
    return copy.data;
  }

  const publishDraft = createPublishDraft(registry, versionCopy);

  /** Validate the payload, resolve relations and write one row. */
  async function write(
    ctx: DocumentContext,
    documentId: string,
    input: Record<string, unknown>,
    target:
      | { row: Row }
      | { insert: { locale: string | null; publishedAt: 'now' | null; base?: Record<string, unknown> } },
  ): Promise<WrittenRow> {
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
    let row: WrittenRow;
    try {
      // the row comes back as a read would select it: the answer, and the draft a publish takes
      if ('row' in target) {
        [row] = await table(ctx)
          .where(COLUMNS.id, target.row.id)
          .update({ [COLUMNS.data]: prepared.data, [COLUMNS.updatedAt]: ctx.db.fn.now() })
          .returning(RETURNED);
      } else {
        [row] = await table(ctx)
          .insert({
            [COLUMNS.documentId]: documentId,
            locale: target.insert.locale,
            [COLUMNS.publishedAt]: target.insert.publishedAt === 'now' ? ctx.db.fn.now() : null,
            data: prepared.data,
          })
          .returning(RETURNED);
      }
    } catch (err) {
      throw uniqueViolation(err, ctx.contentType, prepared.data) ?? err;
    }
    const written = new Set(prepared.relations.filter((r) => r.holder === prepared.data).map((r) => r.key));
    await enforceExclusiveTargets(ctx.db, ctx.touch, registry, ctx.uid, documentId, prepared.data, written, locale);
    await applyInverseWrites(ctx.db, ctx.touch, registry, documentId, inverse, locale ?? localeParam(ctx));
    // relation writes may have written this row again (a relation to its own type): its relations
    // then differ from `row`'s, and its ctid, so a publish reads it again; its scalars are as written
    return returned(row);
  }

  /**
   * The written version as the caller asked to see it. Without reading it back when the row
   * written says it all: `{ id, documentId }` to a caller asking for no field (draft & publish asks
   * so of the draft it is about to publish, draft-publish.ts), the row's scalars to one asking for
   * no field list and no relation (every REST write without `fields` or `populate`); a read otherwise.
   */
  const answer = (
    ctx: DocumentContext,
    params: ReadParams,
    row: Row,
    status: Scope['status'],
  ): Doc | Promise<Doc | null> => {
    if (params.fields?.length === 0 && plain({ populate: params.populate }))
      return { id: row.id, documentId: row.document_id };
    if (plain(params)) return toDocument(ctx.contentType, row, { raw: params.raw === true });
    return core.findOne({
      ...ctx,
      action: 'findOne',
      params: { ...params, documentId: row.document_id, status, locale: row.locale ?? undefined },
    });
  };

  /** Hand the draft just written to a publish that may follow (written.ts). */
  const handOver = (ctx: DocumentContext, row: WrittenRow, facts: Omit<WrittenDraft, 'uid' | 'row'>): void => {
    if (row.published_at === null) writtenDrafts.set(ctx.db, { uid: ctx.uid, row, ...facts });
  };

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
      writtenDrafts.clear(ctx.db);
      const p = ctx.params;
      const documentId = p.documentId ?? newDocumentId();
      const status = ctx.contentType.options.draftAndPublish ? (p.status ?? 'draft') : 'published';
      const locale = isLocalized(ctx.contentType) && p.locale && p.locale !== '*' ? p.locale : null;
      const row = await write(ctx, documentId, p.data, {
        insert: { locale, publishedAt: status === 'draft' ? null : 'now', base: p.base },
      });
      // a locale created has no published version yet (every published version has its draft)
      handOver(ctx, row, { published: false, otherLocales: p.documentId !== undefined });
      return (await answer(ctx, p, row, status))!;
    },
    async update(ctx) {
      writtenDrafts.clear(ctx.db);
      const { documentId } = ctx.params;
      const ct = ctx.contentType;
      const q = table(ctx)
        .select(ROW_COLUMNS)
        .where(COLUMNS.documentId, documentId)
        .orderBy(COLUMNS.id)
        .forNoKeyUpdate()
        .first();
      // read with the row, for what follows the update in this transaction: whether a publish
      // replaces a published version or adds one, and whether i18n has other locales to copy to
      const name = ct.collectionName;
      if (ct.options.draftAndPublish) q.select(ctx.db.raw(`${VERSION_EXISTS} AS "published"`, [name, name, name]));
      if (isLocalized(ct)) q.select(ctx.db.raw(`${LOCALE_EXISTS} AS "other_locales"`, [name, name, name]));
      const existing = (await inScope(q, ct, scopeOf(ctx.params))) as
        | (Row & { published?: boolean; other_locales?: boolean })
        | undefined;
      if (!existing) return null;
      if (existing.other_locales !== undefined) ctx.otherLocales = existing.other_locales;
      const row = await write(ctx, documentId, ctx.params.data, { row: existing });
      handOver(ctx, row, { published: existing.published === true, otherLocales: existing.other_locales });
      return answer(ctx, ctx.params, row, scopeOf(ctx.params).status);
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
      const locale = isLocalized(ctx.contentType) && p.locale !== undefined ? p.locale : null;
      // taken whatever the locale: no row is in locale '*', so a publish of every locale takes none
      const handed = writtenDrafts.take(ctx.db, ctx.uid, p.documentId, locale);
      if (handed) {
        const row = await publishDraft(ctx, p.documentId, handed.row, handed);
        if (row) {
          if (handed.otherLocales !== undefined) ctx.otherLocales = handed.otherLocales;
          return answer(ctx, p, row, 'published');
        }
      }
      const versions = await rowsOf(ctx, p.documentId, p.locale, false);
      if (versions.length === 0) return null;
      let row: Row | null = null;
      for (const draft of versions) row = await publishDraft(ctx, p.documentId, draft);
      return versions.length === 1 && row
        ? answer(ctx, p, row, 'published')
        : after(ctx, p, 'published', versions[0].locale);
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
