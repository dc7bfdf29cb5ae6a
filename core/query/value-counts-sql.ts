/**
 * Exact counts of rows per value, kept in the writing transaction (this file: the table, labels,
 * triggers and recount; value-counts-total.ts: a read's total from them), so the total of a list filtered
 * on one attribute (`$eq`, `$in`, a range, `$between`) is a sum over a few dozen rows instead of a
 * count of every matching index entry: at 100k articles, 45k matches cost 3 ms to count and this
 * costs a tenth of that, whatever the number of matches (issue 16).
 *
 * Each summarized attribute's value is given a label whose byte order (COLLATE "C") is the value's
 * order, and the label is counted at several levels, each a prefix of it: for an integer, its sign,
 * its number of digits and its first digit, then its first two digits, …, then the whole label;
 * for a date its year, its month, then the day. The rows below a value are then, level by level,
 * the buckets that share the value's previous prefix and sort before its own: at most a few dozen
 * rows whatever the table's size. Enumerations and booleans have one level, the value itself.
 *
 * A value whose label would not sort as the value compares (an integer attribute holding 2.5, a
 * date stored in another format, written before validation or by raw SQL) is counted at level 0
 * only: while a scope holds any, its totals are counted from the rows as before, so a total is
 * exact in every case. A filter value without a label (a date that is not `YYYY-MM-DD`) is counted
 * from the rows too.
 *
 * Writes append delta rows, as the row counts do (table-sql.ts `ROW_COUNTS`): concurrent writers
 * never wait on each other; now and then a writer folds the deltas written since the last fold into
 * their keys' rows (an advisory lock it does not wait for).
 */
import { createHash } from 'node:crypto';
import type { ContentType } from '../content-types/types.ts';
import { COLUMNS, fragment, lit, quote, type SqlFragment } from './sql.ts';
import { COUNTS_AUTOVACUUM, statementTriggers, TRIGGER_TABLE, valueColumnOf } from './table-sql.ts';

export const VALUE_COUNTS = 'vellum_value_counts';
export const VC = quote(VALUE_COUNTS);

export type Kind = 'integer' | 'date' | 'datetime' | 'exact';

export const KIND_OF: Readonly<Record<string, Kind>> = {
  integer: 'integer',
  biginteger: 'integer',
  date: 'date',
  datetime: 'datetime',
  timestamp: 'datetime',
  enumeration: 'exact',
  boolean: 'exact',
};

/**
 * The prefix length of each level's label, coarse to fine (0: the whole label). An integer's label
 * is `p`/`n`, two digits of length, then its digits: levels 1–4 are its first one to four digits.
 * A date's are its year and month; a datetime's also its day and hour.
 */
export const LEVELS: Readonly<Record<Kind, readonly number[]>> = {
  integer: [4, 5, 6, 7, 0],
  date: [4, 7, 0],
  datetime: [4, 7, 10, 13, 0],
  exact: [0],
};

/** The label functions: NULL for no value, '' for a value that gets no label (level 0). */
const LABEL_FUNCTIONS = [
  // sign, then the number of digits (complemented for negatives: more digits sort first), then the
  // digits (complemented too): byte order is numeric order; int32 and int64 have at most 20 digits
  `CREATE OR REPLACE FUNCTION vellum_count_label_integer(v numeric) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN v IS NULL THEN NULL
    WHEN v <> trunc(v) OR abs(v) >= 1e90 THEN ''
    WHEN v >= 0 THEN 'p' || lpad(length(trunc(v)::text)::text, 2, '0') || trunc(v)::text
    ELSE 'n' || lpad((99 - length(trunc(abs(v))::text))::text, 2, '0')
      || translate(trunc(abs(v))::text, '0123456789', '9876543210') END $fn$`,
  // what validation stores (core/content-types/scalars.ts): any other text gets no label, as its
  // text order (the filter's) need not be its bytes' order in the database's collation
  `CREATE OR REPLACE FUNCTION vellum_count_label_date(v text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN v IS NULL THEN NULL WHEN v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN v ELSE '' END $fn$`,
  `CREATE OR REPLACE FUNCTION vellum_count_label_datetime(v text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT CASE WHEN v IS NULL THEN NULL
    WHEN v ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$' THEN v ELSE '' END $fn$`,
];

/** The label of `value` (SQL of the value column or a bound value) for an attribute of `kind`. */
export function labelOf(kind: Kind, value: string): string {
  if (kind === 'integer') return `vellum_count_label_integer(${value})`;
  if (kind === 'date') return `vellum_count_label_date(${value})`;
  if (kind === 'datetime') return `vellum_count_label_datetime(${value})`;
  return `(${value})::text`;
}

/**
 * Deltas one fold takes at most: a bulk write by SQL (an import) leaves one per key it changed,
 * which then fold a slice per write instead of all at once in one request (600 ms for 24k).
 */
const FOLD_LIMIT = 2000;

/**
 * Folds the deltas written since the last fold of table `t` into one row per key: only the keys
 * they touch are rewritten, so a fold costs the writes since the previous one, not the table.
 * Each key's row is looked up by the key index (a LATERAL subquery that OFFSET 0 keeps from being
 * flattened into a join: one lookup per key, whatever the planner believes), then deleted by its
 * tuple id: planned as a join, stale statistics (the table churns faster than they follow) made
 * it scan every count of the table, once per key (2.4 s at 40k articles) or into a hash (270 ms).
 * Sequential scans are off in here for the same reason: a table the statistics think empty would
 * be scanned whole once per key. `t` is compared in the default collation whatever collation the
 * caller's argument has (see table-sql.ts TRIGGER_TABLE).
 */
const FOLD_FUNCTION = `CREATE OR REPLACE FUNCTION vellum_fold_value_counts(t text) RETURNS void
LANGUAGE sql SET enable_seqscan = off AS $fn$
  WITH fresh AS (DELETE FROM ${VC} WHERE ctid = ANY (ARRAY(SELECT ctid FROM ${VC}
        WHERE "tbl" = t COLLATE "default" AND NOT "folded" LIMIT ${FOLD_LIMIT}))
      RETURNING "attr", "level", "label", "locale", "published", "n"),
    keys AS (SELECT "attr", "level", "label", "locale", "published", sum("n") AS "n" FROM fresh GROUP BY 1, 2, 3, 4, 5),
    old AS (DELETE FROM ${VC} WHERE ctid = ANY (ARRAY(SELECT o.ctid FROM keys k CROSS JOIN LATERAL (
        SELECT v.ctid FROM ${VC} v WHERE v."tbl" = t COLLATE "default" AND v."attr" = k."attr"
          AND v."published" = k."published" AND v."level" = k."level" AND v."label" = k."label"
          AND v."locale" = k."locale" AND v."folded" OFFSET 0) o))
      RETURNING "attr", "level", "label", "locale", "published", "n")
  INSERT INTO ${VC} ("tbl", "attr", "level", "label", "locale", "published", "n", "folded")
  SELECT t, "attr", "level", "label", "locale", "published", sum("n"), true
  FROM (SELECT * FROM keys UNION ALL SELECT * FROM old) x GROUP BY 2, 3, 4, 5, 6 HAVING sum("n") <> 0
$fn$`;

/** The table, its indexes, its autovacuum (table-sql.ts) and the functions every table's triggers share. */
export const VALUE_COUNTS_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS ${VC} ("tbl" text NOT NULL, "attr" text NOT NULL, "level" smallint NOT NULL, ` +
    `"label" text COLLATE "C" NOT NULL, "locale" text NOT NULL, "published" boolean NOT NULL, ` +
    `"n" bigint NOT NULL, "folded" boolean NOT NULL DEFAULT false)`,
  // a scope's locale is tested on the few rows a level's range holds (every locale: no test)
  `CREATE INDEX IF NOT EXISTS ${quote(`${VALUE_COUNTS}_key`)} ON ${VC} ("tbl", "attr", "published", "level", "label")`,
  `CREATE INDEX IF NOT EXISTS ${quote(`${VALUE_COUNTS}_fresh`)} ON ${VC} ("tbl") WHERE NOT "folded"`,
  `ALTER TABLE ${VC} SET (${COUNTS_AUTOVACUUM})`,
  ...LABEL_FUNCTIONS,
  FOLD_FUNCTION,
];

/** A summarized attribute: its name, its value column and how it is labelled. */
interface Summarized {
  name: string;
  column: string;
  kind: Kind;
}

/** The attributes of `ct` whose values are counted: public scalars with a value column and a label. */
export function summarizedAttributes(ct: ContentType): Summarized[] {
  return Object.entries(ct.attributes).flatMap(([name, attr]) => {
    const column = valueColumnOf(name, attr);
    const kind = KIND_OF[attr.type];
    return column && kind ? [{ name, column, kind }] : [];
  });
}

/** The label expression of each level of `a` for a row whose label is `label` (NULL: not counted there). */
function levelRows(a: Summarized, label: string): string[] {
  const levels = LEVELS[a.kind];
  return [
    `(${lit(a.name)}, 0::smallint, CASE WHEN ${label} = '' THEN '' END)`,
    ...levels.map((p, i) => {
      const prefix = p === 0 ? label : `left(${label}, ${p})`;
      return `(${lit(a.name)}, ${i + 1}::smallint, CASE WHEN ${label} <> '' THEN ${prefix} END)`;
    }),
  ];
}

/**
 * Each key's net change over `sources` (tables of rows, each with the sign its rows count with),
 * as rows of VALUE_COUNTS' first seven columns; `tbl` is SQL (a literal, or TRIGGER_TABLE). Each
 * attribute's rows are grouped by value first (values whose changes cancel out, as in an update
 * that leaves the attribute alone, drop there), then the distinct values are spread over the
 * levels: spreading every row made 14 rows of each article before grouping (a recount of 200k
 * rows: 15 s → 3 s).
 */
function deltas(attrs: Summarized[], tbl: string, sources: Array<[string, number]>): string {
  const scope = `coalesce(${quote(COLUMNS.locale)}, '') AS "loc", ${quote(COLUMNS.publishedAt)} IS NOT NULL AS "pub"`;
  return attrs
    .map((a) => {
      const rows = sources
        .map(
          ([from, sign]) =>
            `SELECT ${scope}, ${labelOf(a.kind, quote(a.column))} AS "lab", ${sign} AS "d" FROM ${from}`,
        )
        .join(' UNION ALL ');
      const values = levelRows(a, 'g."lab"').join(', ');
      return (
        `SELECT ${tbl}, x."a", x."lv", x."lb", g."loc", g."pub", sum(g."n") FROM (SELECT "loc", "pub", "lab", ` +
        `sum("d") AS "n" FROM (${rows}) r WHERE "lab" IS NOT NULL GROUP BY 1, 2, 3 HAVING sum("d") <> 0) g ` +
        `CROSS JOIN LATERAL (VALUES ${values}) x("a", "lv", "lb") WHERE x."lb" IS NOT NULL ` +
        `GROUP BY 2, 3, 4, 5, 6 HAVING sum(g."n") <> 0`
      );
    })
    .join(' UNION ALL ');
}

/**
 * The rows an update changed in what is counted (scope or a summarized value): none when it left
 * them alone, as an edit of a title does, and the trigger then skips the deltas (a title's update:
 * 0.07 → 0.014 ms per statement). Compared as raw columns: equal values have equal labels. The
 * same test per attribute, to skip the attributes left alone, cost more than it saved.
 */
function changed(attrs: Summarized[]): string {
  const columns = [
    quote(COLUMNS.locale),
    `${quote(COLUMNS.publishedAt)} IS NOT NULL`,
    ...attrs.map((a) => quote(a.column)),
  ].join(', ');
  return `SELECT ${columns} FROM new_rows EXCEPT ALL SELECT ${columns} FROM old_rows`;
}

const INSERT = `INSERT INTO ${VC} ("tbl", "attr", "level", "label", "locale", "published", "n")`;

/** The name of `table`'s trigger function (tables' names may be long: a digest keeps it short). */
export const countFunctionName = (table: string): string =>
  `vellum_value_counts_${createHash('sha1').update(table).digest('hex').slice(0, 16)}`;

/**
 * The body of `table`'s trigger function, counting `attrs` (static SQL: its plans are cached per
 * session), and its CREATE statement. The sync keeps the body as the definition of what is
 * counted (database/sync-counts.ts).
 */
export function countFunction(table: string, attrs: Summarized[]): { body: string; create: string } {
  const tbl = TRIGGER_TABLE;
  const body = `
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${VC} WHERE "tbl" = ${tbl};
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    ${INSERT} ${deltas(attrs, tbl, [['new_rows', 1]])};
  ELSIF TG_OP = 'DELETE' THEN
    ${INSERT} ${deltas(attrs, tbl, [['old_rows', -1]])};
  ELSIF EXISTS (${changed(attrs)}) THEN
    ${INSERT} ${deltas(attrs, tbl, [
      ['new_rows', 1],
      ['old_rows', -1],
    ])};
  END IF;
  IF random() < 0.02 AND pg_try_advisory_xact_lock(hashtext(${lit(VALUE_COUNTS)}), hashtext(TG_TABLE_NAME)) THEN
    PERFORM vellum_fold_value_counts(${tbl});
  END IF;
  RETURN NULL;
END `;
  const create = `CREATE OR REPLACE FUNCTION ${quote(countFunctionName(table))}() RETURNS trigger
LANGUAGE plpgsql AS $fn$${body}$fn$`;
  return { body, create };
}

/** The triggers running `table`'s count function: each one's name and CREATE statement. */
export const valueCountTriggers = (table: string): Array<{ name: string; create: string }> =>
  statementTriggers(table, 'vellum_values', quote(countFunctionName(table)));

/** `table`'s counts as its rows are now, replacing any (folded: one row per key). */
export const recountValues = (table: string, attrs: Summarized[]): SqlFragment =>
  fragment(
    `WITH gone AS (DELETE FROM ${VC} WHERE "tbl" = ?) ` +
      `INSERT INTO ${VC} ("tbl", "attr", "level", "label", "locale", "published", "n", "folded") ` +
      `SELECT *, true FROM (${deltas(attrs, lit(table), [[quote(table), 1]])}) x`,
    [table],
  );

/** Removes `table`'s counts (its type no longer has an attribute to count). */
export const forgetValues = (table: string): SqlFragment => fragment(`DELETE FROM ${VC} WHERE "tbl" = ?`, [table]);
