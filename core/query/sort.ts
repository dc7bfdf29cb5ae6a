/**
 * The `sort` parameter in all of Strapi's forms (strapi-facts §3), resolved against the
 * schema and compiled to ORDER BY with the cast each type needs.
 */
import type { Knex } from 'knex';
import { invalidKey, validationError } from '../errors.ts';
import type { Registry } from '../content-types/registry.ts';
import { isPlainObject } from '../config/merge.ts';
import { isJsonField, resolveField, type FieldOptions } from './fields.ts';
import { column, typedExpr } from './sql.ts';
import type { SortSpec } from './types.ts';

interface Ctx {
  registry: Registry;
  uid: string;
  options: FieldOptions;
}

const details = (key: string, path: string): Record<string, unknown> => ({ key, path, source: 'query', param: 'sort' });

function order(raw: unknown, key: string, path: string): SortSpec['order'] {
  const o = typeof raw === 'string' ? raw.toLowerCase() : undefined;
  if (o !== 'asc' && o !== 'desc') throw validationError('Invalid order. order can only be one of asc|desc', details(key, path));
  return o;
}

/**
 * One key and what follows it: a direction, or (for `sort[author][name]=asc` and
 * `author.name`) a nested path, which only a relation or component could have.
 */
function spec(ctx: Ctx, name: string, rest: string[] | Record<string, unknown> | undefined, direction: unknown): SortSpec {
  if (name === '') throw validationError('Invalid sort: a field name is empty', details(name, name));
  const resolved = resolveField(ctx.registry, ctx.uid, name, name, 'sort', ctx.options);
  const nested = Array.isArray(rest) ? rest.length > 0 : rest !== undefined;
  if ('through' in resolved) {
    // relation sort: a later version follows the path into the target's schema here
    if (nested) throw validationError(`Sorting through ${name} is not supported yet`, details(name, name));
    throw invalidKey(name, name, 'query', 'sort');
  }
  if (nested) {
    const next = Array.isArray(rest) ? rest[0] : Object.keys(rest as Record<string, unknown>)[0];
    throw invalidKey(next, `${name}.${next}`, 'query', 'sort');
  }
  if (isJsonField(resolved.field)) throw invalidKey(name, name, 'query', 'sort');
  return { field: resolved.field, order: order(direction, name, name) };
}

/** `title`, `title:desc`, `author.name:asc`. */
function fromString(ctx: Ctx, item: string): SortSpec {
  const [path, direction, ...extra] = item.trim().split(':');
  if (extra.length > 0) throw validationError('Invalid order. order can only be one of asc|desc', details(path, path));
  const [name, ...rest] = path.split('.');
  return spec(ctx, name, rest, direction ?? 'asc');
}

function resolveAny(ctx: Ctx, raw: unknown): SortSpec[] {
  if (typeof raw === 'string') return raw.split(',').map((item) => fromString(ctx, item));
  if (Array.isArray(raw)) return raw.flatMap((item) => resolveAny(ctx, item));
  if (isPlainObject(raw)) {
    // past qs' arrayLimit, `sort[150]=x` arrives as an object with index keys
    const keys = Object.keys(raw);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys.map(Number).sort((a, b) => a - b).flatMap((i) => resolveAny(ctx, raw[String(i)]));
    }
    return Object.entries(raw).map(([name, value]) => (isPlainObject(value) ? spec(ctx, name, value, undefined) : spec(ctx, name, undefined, value)));
  }
  throw validationError('Invalid sort parameter', details('sort', ''));
}

/**
 * Resolve the `sort` parameter (after qs parsing) against the schema of `uid`: a name with an
 * optional `:asc`/`:desc` (any case), comma lists, arrays and `{ name: direction }` objects.
 */
export function resolveSort(registry: Registry, uid: string, raw: unknown, options: FieldOptions = {}): SortSpec[] {
  if (raw === undefined || raw === null || raw === '') return [];
  return resolveAny({ registry, uid, options }, raw);
}

/**
 * Order `q` by `specs`, then by `id`, so rows that tie keep one order from page to page.
 * Nulls come last ascending and first descending (PostgreSQL's default, as in Strapi).
 */
export function applySort(q: Knex.QueryBuilder, _registry: Registry, _uid: string, specs: SortSpec[], alias?: string): Knex.QueryBuilder {
  const src = { alias };
  for (const s of specs) {
    const e = typedExpr(src, s.field);
    q.orderByRaw(`${e.sql} ${s.order}`, e.bindings);
  }
  if (!specs.some((s) => s.field.kind === 'system' && s.field.name === 'id')) q.orderByRaw(`${column(src, 'id')} asc`);
  return q;
}
