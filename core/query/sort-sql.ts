/**
 * Compiling SortSpecs to ORDER BY. A field reached through relations or repeatable
 * components is a scalar subquery per step; a single component is read in place:
 *
 *   (SELECT "_vs1"."data"->>'name' FROM "authors" AS "_vs1" WHERE <link> AND <scope> ORDER BY "_vs1"."id" LIMIT 1)
 *
 * Through a to-many step there is no one value: ascending sorts by the smallest related
 * value, descending by the largest (MIN/MAX, bool_and/bool_or for booleans), so "asc" puts
 * first whatever has the smallest related value. Nothing related (or only nulls) sorts as
 * null: last ascending, first descending.
 *
 * Past a second relation, a related row's value is not a nested correlated subquery (which
 * would visit every row reachable through the path once per row above it: exponential in
 * the path's length) but a look-up in a map of every row of that table to its value,
 *
 *   (SELECT jsonb_object_agg("_vm2"."id", <value of "_vm2">)
 *     FROM "articles" AS "_vm2" WHERE <scope>)->>"_vs1"."id"::text
 *
 * which does not depend on the outer row, so PostgreSQL builds it once per statement (an
 * InitPlan): a path through N relations costs N passes over the tables involved.
 */
import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { DEFAULT_SCOPE, scopeCondition, type Scope } from './scope-sql.ts';
import { componentSource, hop, reachesMany } from './paths-sql.ts';
import {
  castOf,
  COLUMNS,
  column,
  joinFragments,
  qualified,
  quote,
  typedExpr,
  type RowSource,
  type Source,
  type SqlFragment,
} from './sql.ts';
import type { ComponentStep, RelationStep, SortSpec } from './types.ts';

interface Ctx {
  registry: Registry;
  scope: Scope;
}

function aggregate(spec: SortSpec, value: string): string {
  const bool = spec.field.kind === 'attribute' && spec.field.type === 'boolean';
  if (spec.order === 'asc') return bool ? `bool_and(${value})` : `MIN(${value})`;
  return bool ? `bool_or(${value})` : `MAX(${value})`;
}

/** The value `spec` orders by, read from `src` through `steps`. */
function sortValue(
  ctx: Ctx,
  src: Source,
  steps: Array<RelationStep | ComponentStep>,
  spec: SortSpec,
  depth: number,
): SqlFragment {
  if (steps.length === 0) return typedExpr(src, spec.field);
  const [step, ...rest] = steps;
  if (step.type === 'component' && !step.repeatable)
    return sortValue(ctx, componentSource(src, step.attribute), rest, spec, depth);
  const alias = `_vs${depth + 1}`;
  const h = hop(ctx.registry, src, step, alias, ctx.scope);
  const value =
    step.type === 'relation' && rest.some((s) => s.type === 'relation')
      ? lookUp(valueMap(ctx, step, rest, spec, depth + 1), alias, spec)
      : sortValue(ctx, h.source, rest, spec, depth + 1);
  const bindings = [...value.bindings, ...h.from.bindings, ...h.where.bindings];
  const where = h.where.sql === 'TRUE' ? '' : ` WHERE ${h.where.sql}`;
  if (reachesMany(step)) return { sql: `(SELECT ${aggregate(spec, value.sql)} FROM ${h.from.sql}${where})`, bindings };
  // one related document; its first row should a read see several (every locale)
  return {
    sql: `(SELECT ${value.sql} FROM ${h.from.sql}${where} ORDER BY ${qualified(alias, COLUMNS.id)} LIMIT 1)`,
    bindings,
  };
}

/** Every row in scope of `step`'s target, by id, to the value it orders by through `rest`: one jsonb object. */
function valueMap(
  ctx: Ctx,
  step: RelationStep,
  rest: Array<RelationStep | ComponentStep>,
  spec: SortSpec,
  depth: number,
): SqlFragment {
  const ct = ctx.registry.contentType(step.target);
  const alias = `_vm${depth}`;
  const value = sortValue(ctx, { alias, table: ct.collectionName }, rest, spec, depth);
  const inScope = scopeCondition(ct, alias, ctx.scope);
  return {
    sql:
      `(SELECT jsonb_object_agg(${qualified(alias, COLUMNS.id)}, ${value.sql}) ` +
      `FROM ${quote(ct.collectionName)} AS ${quote(alias)} WHERE ${inScope.sql})`,
    bindings: [...value.bindings, ...inScope.bindings],
  };
}

/** The value of the row under `alias` in `map`, of the type `typedExpr` gives the field. */
const lookUp = (map: SqlFragment, alias: string, spec: SortSpec): SqlFragment => ({
  sql: `(${map.sql}->>${qualified(alias, COLUMNS.id)}::text)${castOf(spec.field)}`,
  bindings: map.bindings,
});

/** One key of an ORDER BY: its value and its direction. */
export interface SortKey extends SqlFragment {
  order: 'asc' | 'desc';
}

/**
 * The keys of `specs` on `uid`'s rows (under `alias` if they have one), then `id`, so rows that
 * tie keep one order from page to page. Related documents are read in `scope`, the read's.
 */
export function sortKeys(
  registry: Registry,
  uid: string,
  specs: SortSpec[],
  alias?: string,
  scope: Scope = DEFAULT_SCOPE,
): SortKey[] {
  const src: RowSource = {
    alias,
    table: registry.hasContentType(uid) ? registry.contentType(uid).collectionName : undefined,
  };
  const ctx = { registry, scope };
  const keys: SortKey[] = specs.map((s) => ({ ...sortValue(ctx, src, s.path ?? [], s, 0), order: s.order }));
  const byId = specs.some((s) => !s.path?.length && s.field.kind === 'system' && s.field.name === 'id');
  if (!byId) keys.push({ sql: column(src, COLUMNS.id), bindings: [], order: 'asc' });
  return keys;
}

/** `keys` as an ORDER BY list. */
const orderBy = (keys: SortKey[]): SqlFragment =>
  joinFragments(
    keys.map((k) => ({ sql: `${k.sql} ${k.order}`, bindings: k.bindings })),
    ', ',
  );

/**
 * The ORDER BY list of `specs` on `uid`'s rows (`sortKeys`). Nulls come last ascending and first
 * descending (PostgreSQL's default, as in Strapi).
 */
export function compileSort(
  registry: Registry,
  uid: string,
  specs: SortSpec[],
  alias?: string,
  scope: Scope = DEFAULT_SCOPE,
): SqlFragment {
  return orderBy(sortKeys(registry, uid, specs, alias, scope));
}

/**
 * The ORDER BY list of `specs` on component instances read from `source` (a repeatable
 * component's items, in a populate), then `tiebreak` (their stored position).
 */
export function compileInstanceSort(
  registry: Registry,
  specs: SortSpec[],
  source: Source,
  tiebreak: string,
  scope: Scope = DEFAULT_SCOPE,
): SqlFragment {
  const ctx = { registry, scope };
  const keys = specs.map((s) => {
    const e = sortValue(ctx, source, s.path ?? [], s, 0);
    return { sql: `${e.sql} ${s.order}`, bindings: e.bindings };
  });
  return joinFragments([...keys, { sql: tiebreak, bindings: [] }], ', ');
}

/** Order `q` by `specs` (see `compileSort`). */
export function applySort(
  q: Knex.QueryBuilder,
  registry: Registry,
  uid: string,
  specs: SortSpec[],
  alias?: string,
  scope: Scope = DEFAULT_SCOPE,
): Knex.QueryBuilder {
  const order = compileSort(registry, uid, specs, alias, scope);
  return q.orderByRaw(order.sql, order.bindings);
}
