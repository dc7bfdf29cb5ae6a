/**
 * Every raw write to a document row's `data` (outside the plain row insert and update of a
 * write), and the conditions that find the rows to write: relations kept on their owners,
 * media ids, inverse-order ranks, attributes copied across locales. One place for how the
 * JSONB is edited, so the layout (`data.<attribute>`, `data.$order`) is written down once.
 *
 * Fragments are knex raw text: `?` binds a value (attribute names and ids are always bound),
 * `\\?` is PostgreSQL's `?` operator, and identifiers (tables, columns) are quoted with `quote`.
 * They read the updated table's own `data`, unqualified, unless a statement here names its rows.
 */
import { COLUMNS, fragment, ORDER_KEY, quote, type SqlFragment } from './sql.ts';

const DATA = quote(COLUMNS.data);

/** A column of the rows under `alias` in a statement naming two row sets. */
const of =
  (alias: string) =>
  (column: keyof typeof COLUMNS): string =>
    `${quote(alias)}.${quote(COLUMNS[column])}`;

/** JSON null: what a to-one relation or single media holds once its target is gone. */
export const JSON_NULL: SqlFragment = fragment(`'null'::jsonb`);

/** `data` with `attribute` set to `value` (a jsonb expression). */
export const setAttribute = (attribute: string, value: SqlFragment): SqlFragment =>
  fragment(`jsonb_set(${DATA}, ARRAY[?]::text[], ${value.sql})`, [attribute, ...value.bindings]);

/** A documentId as the jsonb string a to-one relation holds. */
export const documentIdValue = (documentId: string): SqlFragment => fragment('to_jsonb(?::text)', [documentId]);

/** A to-many relation's stored ids without `ids` (order kept). */
export const listWithout = (attribute: string, ids: string | string[]): SqlFragment =>
  fragment(`(${DATA} -> ?) - ?${Array.isArray(ids) ? '::text[]' : ''}`, [attribute, ids]);

/** A to-many relation's stored ids with `documentId` last (none stored: a list of it alone). */
export const listWith = (attribute: string, documentId: string): SqlFragment =>
  fragment(`coalesce(${DATA} -> ?, '[]'::jsonb) || to_jsonb(?::text)`, [attribute, documentId]);

/** A multiple media attribute's file ids without `ids` (numbers, order kept). */
export const filesWithout = (attribute: string, ids: number[]): SqlFragment =>
  fragment(`jsonb_path_query_array(${DATA} -> ?, '$[*] \\? (!(@ == $ids[*]))', jsonb_build_object('ids', ?::jsonb))`, [
    attribute,
    JSON.stringify(ids),
  ]);

/** `write` (a `data` expression) without the rank `documentId` had in `attribute`'s inverse list. */
export const withoutRank = (write: SqlFragment, attribute: string, documentId: string): SqlFragment =>
  fragment(`${write.sql} #- ARRAY[?, ?, ?]::text[]`, [...write.bindings, ORDER_KEY, attribute, documentId]);

/** Rows whose relation `attribute` holds `documentId` (in its list when `toMany`). */
export const holds = (attribute: string, documentId: string, toMany: boolean): SqlFragment =>
  fragment(toMany ? `${DATA} -> ? \\? ?` : `${DATA} ->> ? = ?`, [attribute, documentId]);

/** Rows whose relation `attribute` holds any of `ids` (in its list when `toMany`). */
export const holdsAny = (attribute: string, ids: string[], toMany: boolean): SqlFragment =>
  fragment(toMany ? `${DATA} -> ? \\?| ?::text[]` : `${DATA} ->> ? = ANY(?::text[])`, [attribute, ids]);

/** Rows whose to-many relation `attribute` does not hold `documentId` yet. */
export const lacks = (attribute: string, documentId: string): SqlFragment =>
  fragment(`NOT coalesce(${DATA} -> ?, '[]'::jsonb) \\? ?`, [attribute, documentId]);

/** Rows whose media `attribute` holds file `id`: containment on the whole `data`; the GIN index serves it. */
export const holdsFile = (attribute: string, id: number, multiple: boolean): SqlFragment =>
  fragment(`${DATA} @> ?::jsonb`, [JSON.stringify({ [attribute]: multiple ? [id] : id })]);

/**
 * Rank the owners `moved` (documentId → rank) in `documentId`'s inverse list of the owning
 * `attribute`, in the owner rows of `table` (of `locale` when not null): one statement.
 */
export function setRanks(
  table: string,
  attribute: string,
  documentId: string,
  moved: Array<{ id: string; rank: number }>,
  locale: string | null,
): SqlFragment {
  const o = of('o');
  // the ranks object, and this attribute's in it, as objects whatever the row held before
  const object = (path: string): string =>
    `CASE WHEN jsonb_typeof(${o('data')} ${path}) = 'object' THEN ${o('data')} ${path} ELSE '{}'::jsonb END`;
  const [all, mine] = [object('-> ?'), object('-> ? -> ?')];
  return fragment(
    `UPDATE ${quote(table)} AS "o" SET ${DATA} = jsonb_set(${o('data')}, ARRAY[?]::text[], (${all})` +
      ` || jsonb_build_object(?::text, (${mine}) || jsonb_build_object(?::text, "v"."rank")))` +
      ` FROM unnest(?::text[], ?::int[]) AS "v"("id", "rank") WHERE ${o('documentId')} = "v"."id"` +
      `${locale === null ? '' : ` AND ${o('locale')} = ?`}`,
    [
      ORDER_KEY,
      ORDER_KEY,
      ORDER_KEY,
      attribute,
      ORDER_KEY,
      attribute,
      ORDER_KEY,
      attribute,
      documentId,
      moved.map((m) => m.id),
      moved.map((m) => m.rank),
      ...(locale === null ? [] : [locale]),
    ],
  );
}

/**
 * Copy the attributes `keys` (those present) of one version of a document, the row in `locale`
 * and publication state (`published`), to the document's rows in every other locale in that
 * state: one statement.
 */
export function copyAttributesToLocales(
  table: string,
  keys: string[],
  documentId: string,
  locale: string,
  published: boolean,
): SqlFragment {
  const state = published ? 'IS NOT NULL' : 'IS NULL';
  const [o, s] = [of('o'), of('s')];
  return fragment(
    `UPDATE ${quote(table)} AS "o" SET ${DATA} = ${o('data')} || COALESCE((SELECT jsonb_object_agg("k"."key",` +
      ` ${s('data')} -> "k"."key") FROM unnest(?::text[]) AS "k"("key") WHERE jsonb_exists(${s('data')}, "k"."key")),` +
      ` '{}'::jsonb) FROM ${quote(table)} AS "s" WHERE ${s('documentId')} = ? AND ${s('locale')} = ?` +
      ` AND ${s('publishedAt')} ${state} AND ${o('documentId')} = ${s('documentId')}` +
      ` AND ${o('locale')} <> ${s('locale')} AND ${o('publishedAt')} ${state}`,
    [keys, documentId, locale],
  );
}
