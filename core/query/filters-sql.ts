/**
 * Compiling a FilterNode to one SQL condition over the JSONB rows, with Strapi's semantics on
 * PostgreSQL (strapi-facts §2). Values are always bound. Equality (`$eq`, `$in`) on an
 * attribute with a value column (table-sql.ts `valueColumn`) compares that column, which its
 * read index serves and whose statistics give the planner the rows it matches; on other
 * scalar attributes it is a containment (`data @> …`), which means exactly the same and the
 * GIN `jsonb_path_ops` index on `data` serves.
 */
import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { DEFAULT_SCOPE, type Scope } from './scope-sql.ts';
import {
  dataOf,
  joinFragments,
  placeholder,
  presenceExpr,
  textExpr,
  readsValueColumn,
  typedExpr,
  type Source,
  type SqlFragment,
} from './sql.ts';
import { isJsonField } from './fields.ts';
import { compileDeep, idPresence, onNullRow } from './filters-deep-sql.ts';
import type { FieldRef, FilterCondition, FilterNode, FilterValue, TextOperator } from './types.ts';

/** What compiling needs: the schema (to look targets up), where fields live, and which versions a read sees. */
export interface CompileContext {
  registry: Registry;
  /** the content-type or component `source` reads */
  uid: string;
  source: Source;
  /**
   * The read's status and locale: related documents count only in the same scope. Callers
   * reading another version must pass it; without it, published rows of any locale.
   */
  scope?: Scope;
  /** how many subqueries deep this node sits, so nested ones get their own aliases (0 at the root) */
  depth?: number;
  /** owning relations matched in the link tables (links-sql.ts) rather than by containment in `data` */
  links?: boolean;
}

const TRUE: SqlFragment = { sql: 'TRUE', bindings: [] };
const FALSE: SqlFragment = { sql: 'FALSE', bindings: [] };

/** `data @> '{"x": v}'`: true exactly when x equals the scalar v, and served by the GIN index. */
function contains(src: Source, f: FieldRef, value: FilterValue): SqlFragment {
  const d = dataOf(src);
  return { sql: `${d.sql} @> ?::jsonb`, bindings: [...d.bindings, JSON.stringify({ [f.name]: value })] };
}

/**
 * Scalar attributes, whose equality containment expresses exactly (JSON values need more),
 * unless the attribute is read from its value column (`typedExpr`), whose read index serves the
 * plain comparison.
 */
const containable = (src: Source, f: FieldRef): boolean =>
  f.kind === 'attribute' && !isJsonField(f) && !readsValueColumn(src, f);

function compare(src: Source, f: FieldRef, op: string, value: FilterValue): SqlFragment {
  const left = typedExpr(src, f);
  const right = placeholder(f, value);
  return { sql: `${left.sql} ${op} ${right.sql}`, bindings: [...left.bindings, ...right.bindings] };
}

function isNull(src: Source, f: FieldRef, wanted: boolean): SqlFragment {
  const t = presenceExpr(src, f);
  return { sql: `${t.sql} IS ${wanted ? '' : 'NOT '}NULL`, bindings: t.bindings };
}

function equals(src: Source, f: FieldRef, value: FilterValue): SqlFragment {
  if (value === null) return isNull(src, f, true);
  if (containable(src, f)) return contains(src, f, value);
  if (isJsonField(f)) {
    // containment first lets the index narrow the rows; the equality makes it exact
    const exact = compare(src, f, '=', value);
    const c = contains(src, f, value);
    return { sql: `(${c.sql} AND ${exact.sql})`, bindings: [...c.bindings, ...exact.bindings] };
  }
  return compare(src, f, '=', value);
}

function inList(src: Source, f: FieldRef, values: FilterValue[], negate: boolean): SqlFragment {
  // knex's answer to an empty list (`1 = 0` / `1 = 1`), which Strapi inherits
  if (values.length === 0) return negate ? TRUE : FALSE;
  if (!negate && containable(src, f)) {
    // one containment per value, so the index serves each; for non-null scalars this is IN
    const any = joinFragments(
      values.map((v) => contains(src, f, v)),
      ' OR ',
    );
    return { sql: `(${any.sql})`, bindings: any.bindings };
  }
  const left = typedExpr(src, f);
  const items = joinFragments(
    values.map((v) => placeholder(f, v)),
    ', ',
  );
  return {
    sql: `${left.sql} ${negate ? 'NOT IN' : 'IN'} (${items.sql})`,
    bindings: [...left.bindings, ...items.bindings],
  };
}

/** A LIKE pattern's trailing lone backslash would escape nothing (an SQL error): keep it literal. */
const literalTail = (v: string): string => (/(?:^|[^\\])(?:\\\\)*\\$/.test(v) ? `${v}\\` : v);

const TEXT: Record<TextOperator, { op: string; lower: boolean; pattern: (v: string) => string }> = {
  $eqi: { op: '=', lower: true, pattern: (v) => v },
  $nei: { op: '<>', lower: true, pattern: (v) => v },
  // `%` and `_` stay wildcards: Strapi does not escape them either
  $contains: { op: 'LIKE', lower: false, pattern: (v) => `%${literalTail(v)}%` },
  $notContains: { op: 'NOT LIKE', lower: false, pattern: (v) => `%${literalTail(v)}%` },
  $containsi: { op: 'LIKE', lower: true, pattern: (v) => `%${literalTail(v)}%` },
  $notContainsi: { op: 'NOT LIKE', lower: true, pattern: (v) => `%${literalTail(v)}%` },
  $startsWith: { op: 'LIKE', lower: false, pattern: (v) => `${literalTail(v)}%` },
  $startsWithi: { op: 'LIKE', lower: true, pattern: (v) => `${literalTail(v)}%` },
  $endsWith: { op: 'LIKE', lower: false, pattern: (v) => `%${literalTail(v)}` },
  $endsWithi: { op: 'LIKE', lower: true, pattern: (v) => `%${literalTail(v)}` },
};

function text(src: Source, f: FieldRef, operator: TextOperator, value: string): SqlFragment {
  const { op, lower, pattern } = TEXT[operator];
  const t = textExpr(src, f);
  const left = lower ? `LOWER(${t.sql})` : t.sql;
  const right = lower ? 'LOWER(?::text)' : '?::text';
  return { sql: `${left} ${op} ${right}`, bindings: [...t.bindings, pattern(value)] };
}

function condition(src: Source, c: FilterCondition): SqlFragment {
  switch (c.operator) {
    case '$null':
      return isNull(src, c.field, c.value);
    case '$notNull':
      return isNull(src, c.field, !c.value);
    case '$eq':
      return equals(src, c.field, c.value);
    // plain `<>`: like Strapi's, it leaves out rows where the attribute is null
    case '$ne':
      return c.value === null ? isNull(src, c.field, false) : compare(src, c.field, '<>', c.value);
    case '$lt':
      return compare(src, c.field, '<', c.value);
    case '$lte':
      return compare(src, c.field, '<=', c.value);
    case '$gt':
      return compare(src, c.field, '>', c.value);
    case '$gte':
      return compare(src, c.field, '>=', c.value);
    case '$in':
      return inList(src, c.field, c.value, false);
    case '$notIn':
      return inList(src, c.field, c.value, true);
    case '$between': {
      const left = typedExpr(src, c.field);
      const [low, high] = c.value.map((v) => placeholder(c.field, v));
      return {
        sql: `${left.sql} BETWEEN ${low.sql} AND ${high.sql}`,
        bindings: [...left.bindings, ...low.bindings, ...high.bindings],
      };
    }
    default:
      return text(src, c.field, c.operator, c.value);
  }
}

/** The node as one parenthesised SQL condition. */
export function compileFilters(node: FilterNode, ctx: CompileContext): SqlFragment {
  switch (node.type) {
    case 'and':
    case 'or': {
      const parts = joinFragments(
        node.nodes.map((n) => compileFilters(n, ctx)),
        node.type === 'and' ? ' AND ' : ' OR ',
      );
      return { sql: `(${parts.sql})`, bindings: parts.bindings };
    }
    case 'not': {
      const inner = compileFilters(node.node, ctx);
      return { sql: `(NOT ${inner.sql})`, bindings: inner.bindings };
    }
    case 'absent':
      // neither true nor false, as SQL reads a missing value: NOT keeps it from matching too
      return { sql: '(NULL::boolean)', bindings: [] };
    case 'condition': {
      const c = condition(ctx.source, node);
      return { sql: `(${c.sql})`, bindings: c.bindings };
    }
    default:
      return compileDeep(node, ctx, compileFilters);
  }
}

/**
 * Whether `node` tests only its row's own fields (no relation, media or component step): such a
 * filter is cheap to evaluate twice, and each evaluation can use the row's indexes.
 */
export function readsOnlyItsRow(node: FilterNode): boolean {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.nodes.every(readsOnlyItsRow);
    case 'not':
      return readsOnlyItsRow(node.node);
    case 'absent':
    case 'condition':
      return true;
    default:
      return false;
  }
}

/**
 * Whether `node` goes only through owning relations (answered by the row's link table,
 * links-sql.ts) to conditions on the targets' own fields, besides the row's own fields: cheap
 * enough to evaluate twice on a large table (read.ts `evaluatedOnce`). A relation that a row with
 * nothing related may match (`$null` through it) tests each row on its own: not such a filter.
 */
export function cheapTwice(node: FilterNode): boolean {
  switch (node.type) {
    case 'and':
    case 'or':
      return node.nodes.every(cheapTwice);
    case 'not':
      return cheapTwice(node.node);
    case 'relation':
      return (
        node.link.kind === 'owning' &&
        idPresence(node.node) === undefined &&
        onNullRow(node.node) !== 'true' &&
        readsOnlyItsRow(node.node)
      );
    default:
      return readsOnlyItsRow(node);
  }
}

/**
 * Restrict `q` (on `uid`'s table, under `alias` if it has one) to the rows `node` matches.
 * `scope` is the read's: related documents are matched in it (default: published, any locale).
 */
export function applyFilters(
  q: Knex.QueryBuilder,
  registry: Registry,
  uid: string,
  node: FilterNode,
  alias?: string,
  scope: Scope = DEFAULT_SCOPE,
  links = false,
): Knex.QueryBuilder {
  const source = { alias, table: registry.contentType(uid).collectionName };
  const { sql, bindings } = compileFilters(node, { registry, uid, source, scope, links });
  return q.whereRaw(sql, bindings);
}
