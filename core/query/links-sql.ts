/**
 * The link table of a document table: one row `(attribute, target, row_id)` per documentId a
 * row holds in an owning relation attribute (`data->'tags'`, `data->'author'`), kept by statement
 * triggers in the writing transaction, as the counts are (database/sync-links.ts creates them).
 *
 * Why: a filter through a relation (`filters[tags][name][$in]`) was a containment test on `data`
 * answered by the GIN index, and PostgreSQL rechecks a GIN match on the row: at 100k articles a
 * filter matching 8.6k of them, with its total, read 8.6k rows of ~7 kB (one a page) to count
 * them, and read them again to sort them. Over this table the same test is a btree lookup of the
 * matching targets' ids returning row ids, which joins the value columns' index-only scans for
 * the total and is probed row by row as the sort's index is walked for the page.
 *
 * Exactly what containment matched: a to-one attribute links its value when it is a JSON string,
 * a to-many one each string element of its array; anything else links nothing. A row holding one
 * id twice links it once (the key is the whole row): the filter asks whether a row holds it.
 */
import { createHash } from 'node:crypto';
import { isToMany, type ContentType } from '../content-types/types.ts';
import { statementTriggers } from './table-sql.ts';
import { lit, quote } from './sql.ts';

/** An owning relation attribute of a content type, as its rows hold it. */
export interface Linked {
  attribute: string;
  toMany: boolean;
}

/** `ct`'s owning relations (those whose ids its rows hold), by name: what its link table keeps. */
export function linkedAttributes(ct: ContentType): Linked[] {
  return Object.entries(ct.attributes)
    .flatMap(([attribute, attr]) =>
      attr.type === 'relation' && !attr.mappedBy ? [{ attribute, toMany: isToMany(attr) }] : [],
    )
    .sort((a, b) => (a.attribute < b.attribute ? -1 : 1));
}

const hashOf = (table: string): string => createHash('sha1').update(table).digest('hex').slice(0, 16);

/** The link table of document table `table` (a hash: `<table>$links` could pass 63 bytes and be cut). */
export const linksTable = (table: string): string => `vellum_links_${hashOf(table)}`;

/** Its trigger function. */
export const linksFunctionName = (table: string): string => `vellum_keep_links_${hashOf(table)}`;

/** The table, its key (the filter's lookup) and its index by row (a row's links, for writes and probes). */
export function linksDdl(table: string): string[] {
  const t = linksTable(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${quote(t)} ("attribute" text NOT NULL, "target" text NOT NULL, ` +
      `"row_id" bigint NOT NULL, PRIMARY KEY ("attribute", "target", "row_id"))`,
    `CREATE INDEX IF NOT EXISTS ${quote(`${t}_row`)} ON ${quote(t)} ("row_id")`,
  ];
}

/** `SELECT attribute, target, row_id` of the rows in `rows` (a table or transition table name). */
function linksOf(rows: string, attrs: Linked[]): string {
  const branches = attrs.map(({ attribute, toMany }) => {
    const value = `"r"."data"->${lit(attribute)}`;
    return toMany
      ? `SELECT ${lit(attribute)}, "e" #>> '{}' FROM jsonb_array_elements(CASE jsonb_typeof(${value}) ` +
          `WHEN 'array' THEN ${value} END) AS "e" WHERE jsonb_typeof("e") = 'string'`
      : `SELECT ${lit(attribute)}, ${value} #>> '{}' WHERE jsonb_typeof(${value}) = 'string'`;
  });
  return (
    `SELECT "a"."attribute", "a"."target", "r"."id" AS "row_id" FROM ${rows} AS "r" ` +
    `CROSS JOIN LATERAL (${branches.join(' UNION ALL ')}) AS "a"("attribute", "target")`
  );
}

/**
 * The trigger function's body and its CREATE. An update deletes the links its rows lost and adds
 * those they gained (a publish's new `id` is both); one that leaves every row's id and relations
 * alone (a draft's title edit) only compares them.
 */
export function linksFunction(table: string, attrs: Linked[]): { body: string; create: string } {
  const t = quote(linksTable(table));
  // an update's rows as ids and held values: equal multisets (an UPDATE's old and new rows are as
  // many) mean nothing to relink, decided by one small EXCEPT instead of two statements' worth
  const held = (rows: string): string =>
    `SELECT "id", ${attrs.map((a) => `"data"->${lit(a.attribute)}`).join(', ')} FROM ${rows}`;
  const key = `("attribute", "target", "row_id")`;
  const body = `
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${t};
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO ${t} ${linksOf('new_rows', attrs)} ON CONFLICT DO NOTHING;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM ${t} WHERE "row_id" IN (SELECT "id" FROM old_rows);
  ELSIF EXISTS (${held('new_rows')} EXCEPT ALL ${held('old_rows')}) THEN
    DELETE FROM ${t} WHERE ${key} IN (${linksOf('old_rows', attrs)} EXCEPT ${linksOf('new_rows', attrs)});
    INSERT INTO ${t} ${linksOf('new_rows', attrs)} EXCEPT ${linksOf('old_rows', attrs)} ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END `;
  const create = `CREATE OR REPLACE FUNCTION ${quote(linksFunctionName(table))}() RETURNS trigger
LANGUAGE plpgsql AS $fn$${body}$fn$`;
  return { body, create };
}

/** The link triggers of `table`. */
export const linksTriggers = (table: string): Array<{ name: string; create: string }> =>
  statementTriggers(table, 'vellum_links', quote(linksFunctionName(table)));

/** `table`'s links as its rows are now (into an emptied link table). */
export const relink = (table: string, attrs: Linked[]): string =>
  `INSERT INTO ${quote(linksTable(table))} ${linksOf(quote(table), attrs)} ON CONFLICT DO NOTHING`;
