/**
 * The `sort` parameter in all of Strapi's forms (strapi-facts §3), resolved against the
 * schema, through relations and components (`author.name:desc`, `sort[seo][metaTitle]=asc`).
 * Compiled to ORDER BY by `sort-sql.ts`.
 */
import { validationError } from '../errors.ts';
import type { Registry } from '../content-types/registry.ts';
import { isPlainObject } from '../config/merge.ts';
import { invalidField, isJsonField, resolveField, stepThrough, type FieldOptions } from './fields.ts';
import type { ComponentStep, RelationStep, SortSpec } from './types.ts';

export { applySort, compileInstanceSort, compileSort, sortKeys } from './sort-sql.ts';

/** How many names one sort path may chain (`a.b.c…`): each step is a subquery. */
export const MAX_SORT_DEPTH = 16;

interface Ctx {
  registry: Registry;
  uid: string;
  options: FieldOptions;
}

/** One sort key as written: the names leading to the field, and its direction (unchecked). */
interface Written {
  names: string[];
  direction: unknown;
}

const details = (key: string, path: string): Record<string, unknown> => ({ key, path, source: 'query', param: 'sort' });

/** Strapi 5.54's words, with no details. */
const invalidOrder = (): Error => validationError('Invalid order. order can only be one of asc|desc|ASC|DESC');

function order(raw: unknown): SortSpec['order'] {
  const o = typeof raw === 'string' ? raw.toLowerCase() : undefined;
  if (o !== 'asc' && o !== 'desc') throw invalidOrder();
  return o;
}

/**
 * Follow `names` from the root: relations, media and components lead on (the field's row
 * or instance is then reached through `path`), and the last name must be a sortable scalar.
 * A dynamic zone, or a relation or component named last, is an invalid key.
 */
function resolvePath(ctx: Ctx, { names, direction }: Written): SortSpec {
  if (names.length > MAX_SORT_DEPTH)
    throw validationError(
      `Invalid sort: a path has more than ${MAX_SORT_DEPTH} names`,
      details(names[0], names.join('.')),
    );
  const path: Array<RelationStep | ComponentStep> = [];
  let uid = ctx.uid;
  for (const [i, name] of names.entries()) {
    const at = names.slice(0, i + 1).join('.');
    if (name === '') throw validationError('Invalid sort: a field name is empty', details(name, at));
    const resolved = resolveField(ctx.registry, uid, name, at, 'sort', ctx.options);
    const last = i === names.length - 1;
    if ('field' in resolved) {
      if (!last) throw invalidField(names[i + 1], `${at}.${names[i + 1]}`, 'sort', false);
      if (isJsonField(resolved.field)) throw invalidField(name, at, 'sort', true);
      const spec: SortSpec = { field: resolved.field, order: order(direction) };
      return path.length > 0 ? { ...spec, path } : spec;
    }
    const step = stepThrough(ctx.registry, name, resolved.through.attribute, at, 'sort');
    if (!step || last) throw invalidField(name, at, 'sort', true);
    path.push(step);
    uid = step.type === 'relation' ? step.target : step.component;
  }
  throw validationError('Invalid sort: a field name is empty', details('', ''));
}

/** `title`, `title:desc`, `author.name:asc`. */
function fromString(item: string): Written {
  const [path, direction, ...extra] = item.trim().split(':');
  if (extra.length > 0) throw invalidOrder();
  return { names: path.split('.'), direction: direction ?? 'asc' };
}

/** `{ author: { name: 'asc' } }`: every leaf is one key, its names the path to it. */
function fromObject(raw: Record<string, unknown>, prefix: string[]): Written[] {
  if (prefix.length > MAX_SORT_DEPTH)
    throw validationError(
      `Invalid sort: a path has more than ${MAX_SORT_DEPTH} names`,
      details(prefix[0], prefix.join('.')),
    );
  return Object.entries(raw).flatMap(([name, value]) =>
    isPlainObject(value) ? fromObject(value, [...prefix, name]) : [{ names: [...prefix, name], direction: value }],
  );
}

function written(raw: unknown): Written[] {
  if (typeof raw === 'string') return raw.split(',').map(fromString);
  if (Array.isArray(raw)) return raw.flatMap(written);
  if (isPlainObject(raw)) {
    // past qs' arrayLimit, `sort[150]=x` arrives as an object with index keys
    const keys = Object.keys(raw);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
      return keys
        .map(Number)
        .sort((a, b) => a - b)
        .flatMap((i) => written(raw[String(i)]));
    }
    return fromObject(raw, []);
  }
  throw validationError('Invalid sort parameter', details('sort', ''));
}

/**
 * Resolve the `sort` parameter (after qs parsing) against the schema of `uid`: a path with an
 * optional `:asc`/`:desc` (any case), comma lists, arrays and nested `{ name: direction }`
 * objects. Paths go through relations, media and components.
 */
export function resolveSort(registry: Registry, uid: string, raw: unknown, options: FieldOptions = {}): SortSpec[] {
  if (raw === undefined || raw === null || raw === '') return [];
  const ctx = { registry, uid, options };
  return written(raw).map((w) => resolvePath(ctx, w));
}
