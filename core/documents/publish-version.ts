import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { COLUMNS, ROW_COLUMNS } from '../query/sql.ts';
import { uniqueViolation } from './db-errors.ts';
import { checkPublishable } from './publish-check.ts';
import type { Row } from './rows.ts';
import type { DocumentContext } from './types.ts';
import { returned, UNCHANGED, type WrittenDraft } from './written.ts';

/** Rows of exactly this locale (null: the rows of a type that is not localized). */
export const ofLocale = (q: Knex.QueryBuilder, locale: string | null): Knex.QueryBuilder =>
  locale === null ? q.whereNull(COLUMNS.locale) : q.where(COLUMNS.locale, locale);

export type PublishDraft = (
  ctx: DocumentContext,
  documentId: string,
  draft: Row,
  handed?: WrittenDraft,
) => Promise<Row | null>;

/**
 * What publishing one draft takes; `versionCopy` gives a version's data components of its own.
 */
export function createPublishDraft(
  registry: Registry,
  versionCopy: (ctx: DocumentContext, data: Record<string, unknown>) => Promise<Record<string, unknown>>,
): PublishDraft {
  const table = (ctx: DocumentContext): Knex.QueryBuilder => ctx.db(ctx.contentType.collectionName);

  /**
   * Publish `draft`: check it passes every rule, then make its published version. `handed`: the
   * draft as a write of this transaction left it (written.ts), used only while it is still that
   * version; null when it is not (nor when it fails a check: the caller reads it again to be sure).
   */
  async function publishDraft(
    ctx: DocumentContext,
    documentId: string,
    draft: Row,
    handed?: WrittenDraft,
  ): Promise<Row | null> {
    try {
      // a draft was written leniently: it becomes published only if it passes every rule
      await checkPublishable(ctx.db, registry, ctx.contentType, documentId, draft.locale, draft.data);
    } catch (err) {
      if (handed) return null;
      throw err;
    }
    const name = ctx.contentType.collectionName;
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
    // a handed draft is used only while it is still the version written (its ctid): else null
    const guard = handed ? [name, draft.id, handed.row.ctid] : null;
    if (!handed || handed.published) {
      const q = ofLocale(table(ctx).where(COLUMNS.documentId, documentId), draft.locale).whereNotNull(
        COLUMNS.publishedAt,
      );
      if (guard) q.whereRaw(UNCHANGED, guard);
      const [row] = await q
        .update({ [COLUMNS.id]: ctx.db.raw('DEFAULT'), ...version })
        .returning(ROW_COLUMNS)
        .catch(unique);
      if (row) return returned(row as Row);
      if (handed) return null;
    }
    // the first published version (INSERT … SELECT, so that the guard can be its WHERE)
    const c = COLUMNS;
    const { rows } = await ctx.db
      .raw(
        `INSERT INTO ?? (??, ??, ??, ??, ??, ??)
        SELECT ?, ?, CURRENT_TIMESTAMP, ?::jsonb, ?::timestamptz, ?::timestamptz${guard ? ` WHERE ${UNCHANGED}` : ''}
        RETURNING ${ROW_COLUMNS.map(() => '??').join(', ')}`,
        [
          name,
          ...[c.documentId, c.locale, c.publishedAt, c.data, c.createdAt, c.updatedAt],
          ...[documentId, draft.locale, JSON.stringify(version.data), draft.created_at, draft.updated_at],
          ...(guard ?? []),
          ...ROW_COLUMNS,
        ],
      )
      .catch(unique);
    return rows[0] ? returned(rows[0] as Row) : null;
  }

  return publishDraft;
}
