/**
 * SQL for the fields a filter or sort reads. Attribute names and values are always bound
 * parameters; only identifiers we produce ourselves (aliases, column names) are spliced in.
 */
import type { Knex } from 'knex';
import type { FieldRef, SystemField } from './types.ts';

export interface SqlFragment {
  sql: string;
  bindings: Knex.Value[];
}

/**
 * Where a node's fields are read from: a document table, under `alias` when the query
 * names it. Deep filters will add component instances (a jsonb value, no columns).
 */
export interface Source {
  alias?: string;
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/** A column of the source's table, qualified when it has an alias. */
export const column = (src: Source, name: string): string => (src.alias ? `${quote(src.alias)}.${quote(name)}` : quote(name));

const COLUMNS: Record<SystemField, string> = {
  id: 'id', documentId: 'document_id', locale: 'locale', createdAt: 'created_at', updatedAt: 'updated_at', publishedAt: 'published_at',
};
const TIMESTAMPS: ReadonlySet<SystemField> = new Set<SystemField>(['createdAt', 'updatedAt', 'publishedAt']);
const NUMBERS: ReadonlySet<string> = new Set(['integer', 'biginteger', 'float', 'decimal']);

/** The field as a value of its type, for comparisons and ORDER BY. */
export function typedExpr(src: Source, f: FieldRef): SqlFragment {
  // timestamps are timestamptz(3): milliseconds, as the API shows them, so equality is exact
  if (f.kind === 'system') return { sql: column(src, COLUMNS[f.name]), bindings: [] };
  const data = column(src, 'data');
  // a JSON null counts as no value, as for every other type (`$ne` leaves it out)
  if (f.type === 'json' || f.type === 'blocks') return { sql: `NULLIF(${data}->?, 'null'::jsonb)`, bindings: [f.name] };
  // numbers (biginteger too: stored as a digit string) compare exactly as numeric
  if (NUMBERS.has(f.type)) return { sql: `(${data}->>?)::numeric`, bindings: [f.name] };
  if (f.type === 'boolean') return { sql: `(${data}->>?)::boolean`, bindings: [f.name] };
  // strings, and dates/times whose stored ISO forms sort as their text
  return { sql: `${data}->>?`, bindings: [f.name] };
}

/** The field as text (NULL when absent or JSON null), for LIKE and `$eqi`/`$nei`. */
export function textExpr(src: Source, f: FieldRef): SqlFragment {
  if (f.kind === 'attribute') return { sql: `${column(src, 'data')}->>?`, bindings: [f.name] };
  const col = column(src, COLUMNS[f.name]);
  // the same text the API returns, so `$startsWith: '2024-05'` means what it reads as
  if (TIMESTAMPS.has(f.name)) return { sql: `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, bindings: [] };
  return { sql: f.name === 'id' ? `${col}::text` : col, bindings: [] };
}

/** What IS NULL tests: `->>` is NULL for an absent key and a JSON null alike; columns as they are. */
export function presenceExpr(src: Source, f: FieldRef): SqlFragment {
  if (f.kind === 'attribute') return { sql: `${column(src, 'data')}->>?`, bindings: [f.name] };
  return { sql: column(src, COLUMNS[f.name]), bindings: [] };
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

/** Join fragments with a separator, concatenating their bindings in order. */
export function joinFragments(parts: SqlFragment[], separator: string): SqlFragment {
  return { sql: parts.map((p) => p.sql).join(separator), bindings: parts.flatMap((p) => p.bindings) };
}
