/**
 * A document table in SQL: its columns (from COLUMNS), its indexes, and the few reads of rows that
 * are neither a document read nor a JSONB write (a unique value's probe, owners' ranks, a file's
 * mime). The probes sit beside the indexes they must match, so the two cannot drift apart.
 *
 * Table and attribute names are schema-checked identifiers, always quoted (`quote`) or written as
 * string literals (`lit`); request values are bound (`?`). DDL takes no bind parameters.
 */
import { isLocalized, type Attribute, type ContentType, type ScalarType } from '../content-types/types.ts';
import { castOf, COLUMNS, fragment, lit, ORDER_KEY, quote, type SqlFragment } from './sql.ts';

const c = (key: keyof typeof COLUMNS): string => quote(COLUMNS[key]);

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

/**
 * The longest string (in characters) a read index holds whole: a btree entry must fit in 2704
 * bytes, a character takes up to 4 in UTF-8, and the locale and id share the entry. A longer
 * value would make its write fail, so attributes whose schema allows one get no index.
 */
const INDEXABLE_CHARS = 600;
const SHORT_TEXT: ReadonlySet<string> = new Set(['string', 'text', 'email', 'uid']);
/** Values of a bounded length whatever the schema says: numbers, booleans, ISO dates and times. */
const FIXED: ReadonlySet<string> = new Set([
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'time',
  'timestamp',
]);

/** Whether a read index can hold every value `attr` may take (a bounded, public scalar). */
function indexable(attr: Attribute): boolean {
  if (attr.private === true) return false;
  return (
    FIXED.has(attr.type) ||
    (attr.type === 'enumeration' && (attr.enum ?? []).every((v) => v.length <= INDEXABLE_CHARS)) ||
    (SHORT_TEXT.has(attr.type) && 'maxLength' in attr && (attr.maxLength ?? Infinity) <= INDEXABLE_CHARS)
  );
}

/**
 * A JSON number's text (what `->>` gives for one, or for a biginteger's digit string) with an
 * exponent numeric can hold: anything else, an old row's text, casts to NULL instead of failing
 * the row's write. No `?` in it: knex would take it for a bind parameter in DDL.
 */
const NUMBER_TEXT = `'^-{0,1}[0-9]+([.][0-9]+){0,1}([eE][-+]{0,1}[0-9]{1,4}){0,1}$'`;

/** A stored generated column holding a read-indexed attribute's typed value. */
export interface ValueColumn {
  name: string;
  /** its type and generation expression, as ADD COLUMN takes them */
  definition: string;
}

/**
 * The generated column of a read-indexed attribute (undefined: none): the value `typedExpr`
 * compares and sorts by, so a count over it is an index-only scan. Its expression never fails
 * (a value that does not cast is NULL), so no stored row can make a write or the sync fail.
 */
export function valueColumn(name: string, attr: Attribute | undefined): ValueColumn | undefined {
  const column = valueColumnOf(name, attr);
  if (attr === undefined || column === undefined) return undefined;
  const text = `(${c('data')}->>${lit(name)})`;
  const cast = castOf({ kind: 'attribute', name, type: attr.type as ScalarType });
  const definition =
    cast === '::numeric'
      ? `numeric GENERATED ALWAYS AS (CASE WHEN ${text} ~ ${NUMBER_TEXT} THEN ${text}::numeric END) STORED`
      : cast === '::boolean'
        ? `boolean GENERATED ALWAYS AS (CASE ${text} WHEN 'true' THEN true WHEN 'false' THEN false END) STORED`
        : `text GENERATED ALWAYS AS (${text}) STORED`;
  return { name: column, definition };
}

/**
 * The name of the generated column of `name` (undefined: none, the attribute has no read index):
 * what a filter or sort on it reads. A name over 60 characters gets none: identifiers are cut at
 * 63 bytes, so its column could collide with another one's (such an attribute is read as
 * unbounded strings are, without an index).
 */
export function valueColumnOf(name: string, attr: Attribute | undefined): string | undefined {
  if (attr === undefined || !indexable(attr) || name.length > 60) return undefined;
  // `$` starts no name in COLUMNS, so the two never collide
  return `v$${name}`;
}

/** The generated columns of `ct`'s table. */
export const valueColumns = (ct: ContentType): ValueColumn[] =>
  Object.entries(ct.attributes).flatMap(([name, attr]) => valueColumn(name, attr) ?? []);

/** One index a read uses: what it orders (an attribute or a column's API name) and its definition. */
export interface ReadIndex {
  key: string;
  definition: string;
}

/**
 * The btree indexes that let a page read walk the rows in order (a sort) or seek them (a range,
 * `$in`, `$eq` on a sortable scalar), reading only the page's rows: one per sortable scalar
 * attribute and timestamp column, and per status a read scopes to, partial on the status's
 * exact condition (`scopeCondition`) so a row sits in one of them only. A localized type's
 * entries lead with the locale, which every read of one locale compares with `=`; `id` last
 * makes `ORDER BY x, id` (the tiebreak) a plain index order.
 */
export function readIndexes(ct: ContentType): ReadIndex[] {
  const lead = isLocalized(ct) ? `${c('locale')}, ` : '';
  const keys: Array<[string, string, boolean?]> = [];
  // exactly what `typedExpr` compiles a sort or comparison on the attribute to: its value column
  for (const [name, attr] of Object.entries(ct.attributes)) {
    const column = valueColumnOf(name, attr);
    if (column) keys.push([name, quote(column)]);
  }
  keys.push(['createdAt', c('createdAt')], ['updatedAt', c('updatedAt')], ['publishedAt', c('publishedAt'), true]);
  const statuses = ct.options.draftAndPublish ? ['IS NOT NULL', 'IS NULL'] : ['IS NOT NULL'];
  const indexes: ReadIndex[] = [];
  for (const status of statuses) {
    const where = ` WHERE ${c('publishedAt')} ${status}`;
    for (const [key, value, publishedOnly] of keys) {
      if (publishedOnly && status === 'IS NULL') continue;
      indexes.push({ key, definition: `(${lead}${value}, ${c('id')})${where}` });
    }
    // the default order (by id) of one locale; without locales the primary key serves it
    if (lead) indexes.push({ key: 'id', definition: `(${lead}${c('id')})${where}` });
  }
  return indexes;
}

/**
 * Exact row counts per table, locale ('' for none) and status, kept by triggers in the writing
 * transaction (so a count read in a snapshot is the count of the rows that snapshot sees): an
 * unfiltered total is a sum over a few rows instead of an index scan of every document. Each
 * write statement appends its net change per scope (a delta row, no row is updated: concurrent
 * writers never wait on one another); now and then a writer folds the table's deltas into one
 * row per scope, one at a time (an advisory lock it does not wait for).
 */
export const ROW_COUNTS = 'vellum_row_counts';
const RC = quote(ROW_COUNTS);

/**
 * Autovacuum for document tables (database/sync.ts) and their link tables (sync-links.ts), which
 * grow by bursts (a seed, an import): PostgreSQL's defaults wait for 10% (analyze) or 20% (vacuum
 * after inserts) of the table to change, so the statistics of a table seeded from empty lag behind
 * it by up to a fifth, and the visibility map (which index-only counts need) is set late. 2% plus
 * a floor makes a burst's analyze and vacuum follow it at the next autovacuum round
 * (database/embedded.ts: every second). The floors
 * (1000 changed rows) are for steady edits: every VACUUM or ANALYZE of a table makes each pooled
 * connection plan again every statement that reads it, and with floors of 200 and 50 a small
 * table taking a few dozen edits a second was vacuumed or analyzed at nearly every round.
 * DESIGN.md justifies each value, with the measurements.
 */
export const DOCUMENT_AUTOVACUUM = [
  'autovacuum_analyze_scale_factor = 0.02',
  'autovacuum_analyze_threshold = 1000',
  'autovacuum_vacuum_scale_factor = 0.05',
  'autovacuum_vacuum_threshold = 1000',
  'autovacuum_vacuum_insert_scale_factor = 0.02',
  'autovacuum_vacuum_insert_threshold = 1000',
].join(', ');

/**
 * Autovacuum for the counts tables (these and value-counts-sql.ts's), which every write appends
 * deltas to and folds now and then: a few dozen rows per edit of a document. With PostgreSQL's
 * defaults (analyze after 10% + 50 changes) the value counts were analyzed twice a second under
 * the bench's mixed workload, and each ANALYZE or VACUUM makes every pooled connection plan again
 * each statement that reads them: every list with its total. Analyzed after 1000 changes, then
 * once they changed by four times their size: the first statistics come early in a seed (a read
 * planned without any cost ten times as much), later ones matter little (reads go by their key).
 * Vacuumed for the rows folds delete, not after inserts (nothing reads them index-only).
 */
export const COUNTS_AUTOVACUUM =
  'autovacuum_analyze_threshold = 1000, autovacuum_analyze_scale_factor = 4, ' +
  'autovacuum_vacuum_threshold = 5000, autovacuum_vacuum_insert_threshold = -1';

/** The counts table, its index and its autovacuum. */
export const ROW_COUNTS_DDL = [
  `CREATE TABLE IF NOT EXISTS ${RC} ("tbl" text NOT NULL, "locale" text NOT NULL, "published" boolean NOT NULL, ` +
    `"n" bigint NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ${quote(`${ROW_COUNTS}_key`)} ON ${RC} ("tbl", "published", "locale")`,
  `ALTER TABLE ${RC} SET (${COUNTS_AUTOVACUUM})`,
];

/** The net change per scope of `rows` (a transition table), signed by `sign`. */
const deltas = (rows: string, sign: string): string =>
  `SELECT coalesce(${c('locale')}, '') AS l, ${c('publishedAt')} IS NOT NULL AS p, ${sign} AS d FROM ${rows}`;

/**
 * A statement trigger's table as text in the database's collation: TG_TABLE_NAME is a `name`,
 * whose collation is "C", and a comparison in "C" cannot use an index built in the default
 * collation (the counts tables' `tbl`): every lookup by it became a scan of the whole index (in
 * the value counts' fold, 40 s for 24k keys).
 */
export const TRIGGER_TABLE = `(TG_TABLE_NAME::text COLLATE "default")`;

/**
 * The four statement triggers (`<prefix>_insert`, `_update`, `_delete`, `_truncate`) that run
 * `fn()` on `table`, with the transition tables `new_rows` and `old_rows`: each one's name and
 * CREATE statement. The row counts and the value counts are kept by such triggers.
 */
export function statementTriggers(table: string, prefix: string, fn: string): Array<{ name: string; create: string }> {
  const events: Array<[string, string]> = [
    ['INSERT', 'REFERENCING NEW TABLE AS new_rows '],
    ['UPDATE', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '],
    ['DELETE', 'REFERENCING OLD TABLE AS old_rows '],
    ['TRUNCATE', ''],
  ];
  return events.map(([event, transitions]) => {
    const name = `${prefix}_${event.toLowerCase()}`;
    return {
      name,
      create:
        `CREATE TRIGGER ${quote(name)} AFTER ${event} ON ${quote(table)} ${transitions}` +
        `FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    };
  });
}

/** The trigger function every document table's count triggers run. */
export const ROW_COUNTS_FUNCTION = `CREATE OR REPLACE FUNCTION vellum_count_rows() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${RC} WHERE "tbl" = ${TRIGGER_TABLE};
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO ${RC} SELECT ${TRIGGER_TABLE}, l, p, sum(d) FROM (${deltas('new_rows', '1')}) x GROUP BY l, p;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO ${RC} SELECT ${TRIGGER_TABLE}, l, p, sum(d) FROM (${deltas('old_rows', '-1')}) x GROUP BY l, p;
  ELSE
    INSERT INTO ${RC} SELECT ${TRIGGER_TABLE}, l, p, sum(d)
      FROM (${deltas('new_rows', '1')} UNION ALL ${deltas('old_rows', '-1')}) x GROUP BY l, p HAVING sum(d) <> 0;
  END IF;
  IF random() < 0.02 AND pg_try_advisory_xact_lock(hashtext(${lit(ROW_COUNTS)}), hashtext(TG_TABLE_NAME)) THEN
    WITH gone AS (DELETE FROM ${RC} WHERE "tbl" = ${TRIGGER_TABLE} RETURNING "locale", "published", "n")
    INSERT INTO ${RC} SELECT ${TRIGGER_TABLE}, "locale", "published", sum("n") FROM gone GROUP BY 1, 2, 3;
  END IF;
  RETURN NULL;
END $fn$`;

/** The count triggers of `table`: each one's name and its CREATE statement. */
export const countTriggers = (table: string): Array<{ name: string; create: string }> =>
  statementTriggers(table, 'vellum_count', 'vellum_count_rows');

/** The counts of `table`'s rows as they are now, replacing any: for a table the triggers start on. */
export const recount = (table: string): SqlFragment =>
  fragment(
    `WITH gone AS (DELETE FROM ${RC} WHERE "tbl" = ?) INSERT INTO ${RC} ` +
      `SELECT ?, coalesce(${c('locale')}, ''), ${c('publishedAt')} IS NOT NULL, count(*) ` +
      `FROM ${quote(table)} GROUP BY 2, 3`,
    [table, table],
  );

/** How many rows of `table` are published (or drafts), of `locale` when given (undefined: every locale). */
export const countedRows = (table: string, published: boolean, locale: string | undefined): SqlFragment =>
  fragment(
    `SELECT coalesce(sum("n"), 0) FROM ${RC} WHERE "tbl" = ? AND "published" = ?` +
      (locale === undefined ? '' : ' AND "locale" = ?'),
    locale === undefined ? [table, published] : [table, published, locale],
  );
