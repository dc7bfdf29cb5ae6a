/**
 * SQL for the fields a filter or sort reads. Values are always bound parameters. Identifiers
 * we produce ourselves (aliases, column and table names) are spliced in quoted; attribute
 * names, which the schema checked, are spliced in as string literals (`lit`): an attribute with
 * read indexes is read from its value column (`readsValueColumn`), and the others' expressions
 * are written as the expression indexes that exist are (a bound `data->>$1` matches no
 * expression index, nor can a generic plan ever use one).
 */
import type { Knex } from 'knex';
import type { FieldRef, SystemField } from './types.ts';

export interface SqlFragment {
  sql: string;
  bindings: Knex.Value[];
}

/**
 * A document table's row, under `alias` when the query names it. `table` lets a subquery
 * refer to an unaliased outer row (`"articles"."data"`), where a bare `"data"` would mean
 * the subquery's own table.
 */
export interface RowSource {
  kind?: 'row';
  alias?: string;
  table?: string;
}

/** A component instance: a jsonb expression (`"_vf1".v`, `"articles"."data"->'seo'`) whose keys are its fields. */
export interface InstanceSource extends SqlFragment {
  kind: 'instance';
}

/** Where a node's fields are read from. */
export type Source = RowSource | InstanceSource;

export const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** A string literal (`'it''s'`): standard_conforming_strings is on since PostgreSQL 9.1, so only `'` is special. */
export const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/**
 * `alias.column`, both quoted. Every name the compilers splice is quoted, the aliases they
 * generate (`t1`, `r0`) included: one rule, with no case where a name is left bare.
 */
export const qualified = (alias: string, name: string): string => `${quote(alias)}.${quote(name)}`;

/** A column of the row source's table, qualified when it has an alias. */
export const column = (src: RowSource, name: string): string => (src.alias ? qualified(src.alias, name) : quote(name));

/** A column of the row, always qualified: for references from inside a subquery. */
export function outerColumn(src: RowSource, name: string): string {
  const qualifier = src.alias ?? src.table;
  if (!qualifier) throw new Error('a row source read from a subquery needs an alias or a table name');
  return qualified(qualifier, name);
}

/** The jsonb holding the source's attributes (`data` of a row, the instance itself). */
export const dataOf = (src: Source): SqlFragment =>
  src.kind === 'instance' ? { sql: src.sql, bindings: src.bindings } : { sql: column(src, 'data'), bindings: [] };

/** The same, always qualified: for references from inside a subquery. */
export const outerDataOf = (src: Source): SqlFragment =>
  src.kind === 'instance' ? { sql: src.sql, bindings: src.bindings } : { sql: outerColumn(src, 'data'), bindings: [] };

/**
 * The columns every document table has (database/sync.ts creates them), by the API's name for
 * them: the one place their SQL names are written.
 */
export const COLUMNS = {
  id: 'id',
  documentId: 'document_id',
  locale: 'locale',
  publishedAt: 'published_at',
  data: 'data',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const satisfies Record<SystemField | 'data', string>;

/** The columns a row is selected with (`Row` in documents/rows.ts). */
export const ROW_COLUMNS: readonly string[] = Object.values(COLUMNS);

/**
 * The key in an owner row's `data` under which it keeps its rank in each inverse to-many list
 * (documents/inverse-order.ts); `$` starts no attribute name, and reads never show it.
 */
export const ORDER_KEY = '$order';
const TIMESTAMPS: ReadonlySet<SystemField> = new Set<SystemField>(['createdAt', 'updatedAt', 'publishedAt']);
const NUMBERS: ReadonlySet<string> = new Set(['integer', 'biginteger', 'float', 'decimal']);

/** A system field's column; on a component instance only `id` exists, kept as a JSON number. */
function systemColumn(src: Source, name: SystemField): SqlFragment & { json?: boolean } {
  if (src.kind !== 'instance') return { sql: column(src, COLUMNS[name]), bindings: [] };
  if (name !== 'id') throw new Error(`component instances have no ${name}`);
  return { sql: `${src.sql}->>'id'`, bindings: src.bindings, json: true };
}

/** `<data>->>'name'` for an attribute. */
function text(src: Source, name: string): SqlFragment {
  const d = dataOf(src);
  return { sql: `${d.sql}->>${lit(name)}`, bindings: d.bindings };
}

/**
 * Whether `f` is read from its value column (a document row's generated copy of the attribute,
 * which its read indexes are built on) rather than from `data`: component instances have none.
 */
export const readsValueColumn = (src: Source, f: FieldRef): boolean =>
  f.kind === 'attribute' && f.column !== undefined && src.kind !== 'instance';

/** The field as a value of its type, for comparisons and ORDER BY. */
export function typedExpr(src: Source, f: FieldRef): SqlFragment {
  if (f.kind === 'system') {
    // timestamps are timestamptz(3): milliseconds, as the API shows them, so equality is exact
    const c = systemColumn(src, f.name);
    return c.json ? { sql: `(${c.sql})::bigint`, bindings: c.bindings } : c;
  }
  // the generated column holds the same typed value (NULL where the text does not cast)
  if (readsValueColumn(src, f)) return { sql: column(src as RowSource, f.column as string), bindings: [] };
  const t = text(src, f.name);
  if (f.type === 'json' || f.type === 'blocks') {
    // a JSON null counts as no value, as for every other type (`$ne` leaves it out)
    const d = dataOf(src);
    return { sql: `NULLIF(${d.sql}->${lit(f.name)}, 'null'::jsonb)`, bindings: d.bindings };
  }
  // numbers (biginteger too: stored as a digit string) compare exactly as numeric; booleans as
  // booleans; strings, and dates/times whose stored ISO forms sort as their text, as text
  const cast = castOf(f);
  return cast ? { sql: `(${t.sql})${cast}`, bindings: t.bindings } : t;
}

/** The cast that turns the field's text (`->>`) into the type `typedExpr` gives it ('' for text). */
export function castOf(f: FieldRef): string {
  if (f.kind === 'system') return f.name === 'id' ? '::bigint' : TIMESTAMPS.has(f.name) ? '::timestamptz' : '';
  if (NUMBERS.has(f.type)) return '::numeric';
  return f.type === 'boolean' ? '::boolean' : '';
}

/** The field as text (NULL when absent or JSON null), for LIKE and `$eqi`/`$nei`. */
export function textExpr(src: Source, f: FieldRef): SqlFragment {
  if (f.kind === 'attribute') return text(src, f.name);
  const c = systemColumn(src, f.name);
  if (c.json) return { sql: c.sql, bindings: c.bindings };
  // the same text the API returns, so `$startsWith: '2024-05'` means what it reads as
  if (TIMESTAMPS.has(f.name)) return { sql: isoTimestamp(c.sql), bindings: [] };
  return { sql: f.name === 'id' ? `${c.sql}::text` : c.sql, bindings: [] };
}

/** What IS NULL tests: `->>` is NULL for an absent key and a JSON null alike; columns as they are. */
export function presenceExpr(src: Source, f: FieldRef): SqlFragment {
  if (f.kind === 'attribute') return text(src, f.name);
  const c = systemColumn(src, f.name);
  return { sql: c.sql, bindings: c.bindings };
}

/** A bound value, cast to the type `typedExpr` gives the field. */
export function placeholder(f: FieldRef, value: unknown): SqlFragment {
  if (f.kind === 'system') {
    if (f.name === 'id') return { sql: '?::bigint', bindings: [value as Knex.Value] };
    return { sql: TIMESTAMPS.has(f.name) ? '?::timestamptz' : '?::text', bindings: [value as Knex.Value] };
  }
  if (f.type === 'json' || f.type === 'blocks') return { sql: '?::jsonb', bindings: [JSON.stringify(value)] };
  // numbers as text: exact for bigintegers and decimals, whatever their size
  if (NUMBERS.has(f.type)) return { sql: '?::numeric', bindings: [String(value)] };
  if (f.type === 'boolean') return { sql: '?::boolean', bindings: [value as boolean] };
  return { sql: '?::text', bindings: [value as string] };
}

/** A fragment; no bindings unless given. */
export const fragment = (sql: string, bindings: Knex.Value[] = []): SqlFragment => ({ sql, bindings });

/** A timestamp column as the API prints it: ISO 8601, UTC, milliseconds (`2024-05-01T10:00:00.000Z`). */
export const isoTimestamp = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Join fragments with a separator, concatenating their bindings in order. */
export function joinFragments(parts: SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), bindings: parts.flatMap((p) => p.bindings) };
}
