/**
 * A document table in SQL: its columns (from COLUMNS), its indexes, and the few reads of rows that
 * are neither a document read nor a JSONB write (a unique value's probe, owners' ranks, a file's
 * mime). The probes sit beside the indexes they must match, so the two cannot drift apart.
 *
 * Table and attribute names are schema-checked identifiers, always quoted (`quote`) or written as
 * string literals (`lit`); request values are bound (`?`). DDL takes no bind parameters.
 */
import { COLUMNS, fragment, ORDER_KEY, quote, type SqlFragment } from './sql.ts';

const c = (key: keyof typeof COLUMNS): string => quote(COLUMNS[key]);
const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Each column's type; keyed by COLUMNS' keys, so a column added there must be given a type here. */
const COLUMN_TYPES: Record<keyof typeof COLUMNS, string> = {
  id: 'bigserial PRIMARY KEY',
  documentId: 'varchar(32) NOT NULL',
  locale: 'varchar(32)',
  publishedAt: 'timestamptz(3)',
  data: `jsonb NOT NULL DEFAULT '{}'::jsonb`,
  createdAt: 'timestamptz(3) NOT NULL DEFAULT now()',
  updatedAt: 'timestamptz(3) NOT NULL DEFAULT now()',
};

/** `CREATE TABLE IF NOT EXISTS` for a document table: every table has the same columns. */
export const createTable = (table: string): string =>
  `CREATE TABLE IF NOT EXISTS ${quote(table)} (${Object.entries(COLUMN_TYPES)
    .map(([key, type]) => `${c(key as keyof typeof COLUMNS)} ${type}`)
    .join(', ')})`;

/** What identifies a version of a document: its id, its locale, draft or published. */
export const VERSION_KEY = `(${c('documentId')}, coalesce(${c('locale')}, ''), (${c('publishedAt')} IS NULL))`;
/** A single type's one document per locale and status. */
export const SINGLE_TYPE_KEY = `(coalesce(${c('locale')}, ''), (${c('publishedAt')} IS NULL))`;
/** The columns every read is scoped by (counts become index-only scans). */
export const SCOPE_COLUMNS = `(${c('locale')}, ${c('publishedAt')})`;
/** The GIN index containment filters (`data @> …`) use. */
export const DATA_GIN = `USING gin (${c('data')} jsonb_path_ops)`;

/**
 * The value a unique index holds for `attribute`: an empty string is no value, as null is (Strapi
 * checks neither). `attribute` must be an identifier: it is spliced (DDL takes no parameters).
 */
export function uniqueExpression(attribute: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(attribute)) throw new Error(`bad attribute name ${attribute}`);
  return `NULLIF(${c('data')}->>${lit(attribute)}, '')`;
}

/** A unique attribute's index: over the published rows of each locale (drafts may share a value). */
export const uniqueIndex = (attribute: string): string =>
  `((${uniqueExpression(attribute)}), coalesce(${c('locale')}, '')) WHERE ${c('publishedAt')} IS NOT NULL`;

/**
 * Whether another published document of `locale` holds `value` in `attribute`, as a boolean
 * column named after the attribute: the unique index's own expression and predicate, so it is
 * an index probe.
 */
export const uniqueTaken = (
  table: string,
  attribute: string,
  value: string,
  locale: string | null,
  documentId: string,
): SqlFragment =>
  fragment(
    `EXISTS (SELECT 1 FROM ${quote(table)} WHERE ${c('publishedAt')} IS NOT NULL AND ` +
      `coalesce(${c('locale')}, '') = ? AND ${c('documentId')} <> ? AND ${uniqueExpression(attribute)} = ?) ` +
      `AS ${quote(attribute)}`,
    [locale ?? '', documentId, value],
  );

/**
 * The sequence ranks of owners appended to an inverse list come from. Renumbering a list through
 * its inverse side gives ranks 1, 2, …, n; appends start above 2^32, so they follow any renumbered
 * list (n never gets there) and stay exact in the float8 ranks are read as (integers up to 2^53).
 * A sequence, not the largest rank among the target's owners + 1: that read every owner holding
 * the target on every write, a cost growing with the table (100k articles over 30 tags).
 */
export const RANK_SEQUENCE = 'vellum_relation_ranks';

/** `CREATE SEQUENCE IF NOT EXISTS` for RANK_SEQUENCE. */
export const CREATE_RANK_SEQUENCE = `CREATE SEQUENCE IF NOT EXISTS ${quote(RANK_SEQUENCE)} START WITH 4294967296`;

/** The next append rank: larger than every rank given before, whatever the target (one row `rank`). */
export const NEXT_RANK = `SELECT nextval(${lit(RANK_SEQUENCE)})::float8 AS "rank"`;

/** An owner row's rank in `documentId`'s list through `attribute` (null: none), the largest of its rows'. */
export const largestRankOf = (attribute: string, documentId: string): SqlFragment =>
  fragment(`max((${c('data')} -> ? -> ? ->> ?)::float8) AS "rank"`, [ORDER_KEY, attribute, documentId]);

/** Owners without a rank first, then by age (their first row). */
export const BY_RANK = `"rank" NULLS FIRST, min(${c('id')})`;

/** A stored attribute of a row as text, under its own name (a file's `mime`). */
export const attributeText = (attribute: string): SqlFragment =>
  fragment(`${c('data')} ->> ? AS ${quote(attribute)}`, [attribute]);

/** Drafts before published rows, then by age: the version a copy across locales starts from. */
export const DRAFT_FIRST = `(${c('publishedAt')} IS NULL) DESC, ${c('id')}`;
