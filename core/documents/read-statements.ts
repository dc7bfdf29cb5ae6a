/**
 * Reads' SQL kept by shape. Building a read's statement (populate-sql.ts, the filter compiler, then
 * knex flattening the nested fragments) cost about a quarter of the server's CPU for a `findOne`
 * with `populate=*`, and a third of a filtered list's; its text depends only on the request: the
 * content type, scope, params (filters and search with their values), page and flags, plus one
 * value, the document asked for. So a read is built once per request shape, with a marker standing
 * for the document id; later reads of that shape copy the statement and put their id where the
 * marker was. Filter and search values are part of the key rather than slots: they are cast, folded
 * into JSON and into the total's value-count labels (filter-values.ts, value-counts-total.ts) in ways
 * a marker cannot follow, and frontends send the same few filters over and over. A stream of
 * never-repeated filters costs a key and an eviction each. Per app (`createCoreActions`): the
 * registry, and so every statement, is fixed while it runs.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createByteLru } from '../cache/lru.ts';
import { inlineValues } from './inline-values.ts';
import type { ReadParams } from './types.ts';

export interface CompiledRead {
  sql: string;
  bindings: readonly Knex.Value[];
}

/** What a statement's key is made of: everything of a read request but its database handle. */
export interface ReadShape {
  uid: string;
  scope: unknown;
  params: ReadParams;
  documentId?: string;
  limit?: number | null;
  offset?: number;
  count?: boolean;
  json?: boolean;
  /** the table is large (`ReadStatements.large`): some reads take another form (read.ts `evaluatedOnce`) */
  large?: boolean;
}

interface Template {
  sql: string;
  bindings: Knex.Value[];
  /** where the document id goes */
  slots: number[];
  /** its text with the values written in, once read again (null: they cannot be); within the size it was kept at */
  inlined?: string | null;
}

export interface ReadStatements {
  /** the statement of `shape`'s read, built by `build` (given the id to write in) unless kept */
  compile(shape: ReadShape, build: (documentId: string | undefined) => CompiledRead): CompiledRead;
  /** a read of `uid` counted `total` rows: its table holds at least as many */
  answered(uid: string, total: number): void;
  /** whether a read of `uid` has counted at least the `large` rows */
  large(uid: string): boolean;
  readonly count: number;
}

/** a shape's key past this length is not kept (a populate tree sent to fill the memory) */
const MAX_KEY_CHARS = 8 * 1024;

/**
 * Whether a read's values are bound: its filters or search. Such a read is planned for them on
 * every run (read.ts `plansOnce`, which writes in the page size of the others).
 */
export const filteredOrSearched = (params: ReadParams): boolean =>
  params.filters !== undefined || params.search !== undefined;

/**
 * Reads that PostgreSQL plans on every run with their values bound: those with filters or search,
 * and pages past the first (whose offset stays bound). The other reads keep one plan.
 */
const plannedPerRun = (s: ReadShape): boolean => filteredOrSearched(s.params) || (s.offset ?? 0) > 0;

/**
 * `value` as JSON when it is plain data (what qs parses, or a document service caller passes
 * as such), else null: a Map, a Date or a class instance could write as the JSON of another value.
 * A key set to undefined writes as an absent one, as the reads take it (`fields: undefined` is in
 * most params).
 */
function plainJson(value: unknown): string | null {
  try {
    return JSON.stringify(value, function (this: Record<string, unknown>, key: string, v: unknown) {
      // what the value was before its toJSON (a Date writes as a string)
      if (typeof this[key] === 'object' && this[key] !== v) throw new TypeError('not plain data');
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) throw new TypeError('not plain data');
      } else if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') {
        throw new TypeError('not plain data');
      } else if (typeof v === 'number' && !Number.isFinite(v)) {
        // JSON writes NaN and Infinity as null: a filter on them is not the filter on null
        throw new TypeError('not plain data');
      }
      return v;
    });
  } catch {
    return null;
  }
}

/**
 * Statements of up to `maxBytes` of SQL, bindings and keys, least recently used dropped first.
 *
 * A read planned on every run (`plannedPerRun`) of a large table that comes again gets its values
 * written into its text (inline-values.ts): PostgreSQL then plans it once, for those very values,
 * and runs that plan while it holds (an ANALYZE, a VACUUM or a schema change plans it again).
 * With its values bound, such a read of a large table is planned on every run, because its
 * generic plan is estimated worse than the custom ones, and planning cost more than running: a
 * `views $gte` page of 25 with its total took 0.81 ms a run at 100k articles bound and 0.24 written
 * in. A plan for one set of values is right for those values, which a generic plan is not (a rare
 * value wants its index first, a common one the sort's): PostgreSQL would reuse it for others,
 * this never does. Of a small table PostgreSQL keeps the bound statement's generic plan, one for
 * every value (at 1k articles; at 10k it planned every run), and there writing values in lost:
 * each set of values planned on each pooled connection, again after every autovacuum of a table
 * a write-heavy workload churns (the mixed workload: PostgreSQL 0.67 → 0.95 ms per request). So
 * values are written in only for a content type a read has counted at least `large` rows of
 * (`answered`: the totals reads return; the largest is kept). Each written text is a statement
 * name and a kept plan on every pooled connection, held until it closes (database/prepared.ts):
 * about 80 bytes of PostgreSQL's memory per byte of text (75 filtered lists of 2.6 kB: 15 MB; 75
 * with `populate=*`, 10.6 kB: 60 MB, on one connection). So the distinct texts written in per app
 * are bounded by their bytes, `inlinedBytes` (512 kB: about 40 MB per connection), the first ones
 * repeated; past them, reads keep their values bound. A read seen once, or a stream of
 * never-repeated filters, costs nothing.
 */
export function createReadStatements(
  maxBytes = 4 * 1024 * 1024,
  inlinedBytes = 512 * 1024,
  large = 5000,
): ReadStatements {
  const lru = createByteLru<Template>(maxBytes);
  // per content type, the most rows a read has counted
  const largest = new Map<string, number>();
  // the texts given their values so far (by hash): an evicted read made again names the same one
  const named = new Set<string>();
  let namedBytes = 0;
  // no document id has a NUL in it (nor can one reach a read: route ids are checked), so the marker
  // is found only where it was put
  const marker = `\u0000vellum-document:${randomUUID()}`;

  const isLarge = (uid: string): boolean => (largest.get(uid) ?? 0) >= large;

  const keyOf = (s: ReadShape): string | null => {
    const parts = [s.uid, s.scope, s.params, s.documentId !== undefined, s.limit, s.offset, s.count, s.json, s.large];
    const key = plainJson(parts);
    return key !== null && key.length <= MAX_KEY_CHARS ? key : null;
  };

  /** `t`'s text with its values written in, when it may have it (a budget's name left, or one it had). */
  const inline = (t: Template): string | null => {
    const text = inlineValues(t.sql, t.bindings);
    if (text === null) return null;
    const hash = createHash('sha1').update(text).digest('base64');
    if (!named.has(hash)) {
      if (namedBytes + text.length > inlinedBytes) return null;
      named.add(hash);
      namedBytes += text.length;
    }
    return text;
  };

  // a copy each time: what a caller (or knex) does to its bindings stays out of the template
  const fill = (t: Template, documentId: string | undefined): CompiledRead => {
    if (t.inlined) return { sql: t.inlined, bindings: [] };
    const bindings = t.bindings.slice();
    for (const i of t.slots) bindings[i] = documentId as string;
    return { sql: t.sql, bindings };
  };

  return {
    compile(shape, build) {
      const key = keyOf(shape);
      if (key === null) return build(shape.documentId);
      const kept = lru.get(key);
      if (kept) {
        if (kept.inlined === undefined && kept.slots.length === 0 && plannedPerRun(shape) && isLarge(shape.uid))
          kept.inlined = inline(kept);
        return fill(kept, shape.documentId);
      }
      const withId = shape.documentId !== undefined;
      const built = build(withId ? marker : undefined);
      const bindings = [...built.bindings];
      const slots = withId ? bindings.flatMap((b, i) => (b === marker ? [i] : [])) : [];
      // the other bindings as JSON, to look for the marker in and to size them (null: not plain data)
      const rest = plainJson(bindings.filter((b) => b !== marker));
      // the marker only as whole values: anywhere else (the text, inside a value) it cannot be replaced
      // (JSON escapes its NUL: look for what follows)
      const clean =
        rest !== null &&
        !built.sql.includes(marker) &&
        !rest.includes(marker.slice(1)) &&
        (!withId || slots.length > 0);
      const template: Template = { sql: built.sql, bindings, slots };
      if (clean) lru.set(key, template, 2 * (key.length + built.sql.length + rest.length) + 256);
      return clean ? fill(template, shape.documentId) : build(shape.documentId);
    },
    answered(uid, total) {
      if (Number.isFinite(total) && total > (largest.get(uid) ?? 0)) largest.set(uid, total);
    },
    large: isLarge,
    get count() {
      return lru.count;
    },
  };
}
