/**
 * The `filters` parameter: resolved against the schema into a FilterNode tree (every name
 * checked, every value cast), then compiled to SQL by `filters-sql.ts`.
 */
import { validationError } from '../errors.ts';
import type { Registry } from '../content-types/registry.ts';
import { isPlainObject } from '../config/merge.ts';
import { hasField, invalidField, isJsonField, resolveField, type FieldOptions } from './fields.ts';
import { asArray, castFlag, castText, castValue } from './filter-values.ts';
import {
  isLocalizationsKey,
  resolveLocalizations,
  resolveThrough,
  type Resolvers,
  type WhereContext,
} from './filters-deep.ts';
import {
  FILTER_OPERATORS,
  type FieldRef,
  type FilterNode,
  type FilterOperator,
  type FilterValue,
  type TextOperator,
} from './types.ts';

export { applyFilters, cheapTwice, compileFilters, readsOnlyItsRow } from './filters-sql.ts';

/**
 * How deep `$and/$or/$not`, relations and components may nest together. qs stops query
 * strings at 20 levels; this bounds trees handed over by other callers (GraphQL) before the
 * recursion does, and the number of nested subqueries a filter compiles to.
 */
export const MAX_FILTER_DEPTH = 32;

const OPERATORS: ReadonlySet<string> = new Set(FILTER_OPERATORS);
const TEXT_OPERATORS: ReadonlySet<string> = new Set<TextOperator>([
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
/** JSON has no meaningful order: json and blocks attributes refuse these. */
const ORDERING: ReadonlySet<string> = new Set(['$lt', '$lte', '$gt', '$gte', '$between']);

// shared by every tree that tests a related id: frozen, so no caller can change it for the others
const ID: FieldRef = Object.freeze({ kind: 'system', name: 'id' });

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** AND/OR of the nodes that say something; empty groups vanish, as they do in Strapi. */
function group(type: 'and' | 'or', nodes: Array<FilterNode | undefined>): FilterNode | undefined {
  const kept = nodes.filter((n): n is FilterNode => n !== undefined);
  if (kept.length <= 1) return kept[0];
  return { type, nodes: kept };
}

function checkDepth(depth: number): void {
  if (depth > MAX_FILTER_DEPTH)
    throw validationError(`filters are nested more than ${MAX_FILTER_DEPTH} levels deep`, {
      key: 'filters',
      source: 'query',
    });
}

/**
 * Resolve the `filters` parameter (after qs parsing) against the schema of `uid`. Unknown
 * attributes or operators are an "Invalid key"; values that cannot be cast to the
 * attribute's type, a 400 naming it. Undefined when there is nothing to filter on.
 */
export function resolveFilters(
  registry: Registry,
  uid: string,
  raw: unknown,
  options: FieldOptions = {},
): FilterNode | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (!isPlainObject(raw))
    throw validationError('Invalid filters parameter: expected an object', {
      key: 'filters',
      source: 'query',
      param: 'filters',
    });
  return resolveWhere({ registry, uid, options, level: 'root' }, raw, '', 0);
}

/** A level where attribute names and `$and/$or/$not` may appear: the root, a relation's target, a component. */
function resolveWhere(
  ctx: WhereContext,
  where: Record<string, unknown>,
  path: string,
  depth: number,
): FilterNode | undefined {
  checkDepth(depth);
  const nodes = Object.entries(where).map(([key, value]): FilterNode | undefined => {
    if (value === undefined) return undefined; // `{ title: undefined }` from code means no condition
    const at = join(path, key);
    if (key === '$and' || key === '$or') {
      const items = asArray(value);
      if (!items)
        throw validationError(`Invalid value of ${key}: expected an array`, {
          key,
          path: at,
          source: 'query',
          param: 'filters',
        });
      return group(
        key === '$and' ? 'and' : 'or',
        items.map((item, i) => {
          if (!isPlainObject(item))
            throw validationError(`Invalid value of ${key}: expected an array of objects`, {
              key,
              path: join(at, String(i)),
              source: 'query',
              param: 'filters',
            });
          return resolveWhere(ctx, item, join(at, String(i)), depth + 1);
        }),
      );
    }
    if (key === '$not') {
      if (!isPlainObject(value))
        throw validationError('Invalid value of $not: expected an object', {
          key,
          path: at,
          source: 'query',
          param: 'filters',
        });
      const inner = resolveWhere(ctx, value, at, depth + 1);
      return inner && { type: 'not', node: inner };
    }
    if (key.startsWith('$')) {
      // `filters[author][$null]=true`: an operator on a relation tests the related document's id
      if (ctx.level === 'relation' && OPERATORS.has(key)) return condition(ID, key as FilterOperator, value, at);
      throw invalidField(key, at, 'filters', false);
    }
    if (ctx.elsewhere?.has(key) && !hasField(ctx.registry, ctx.uid, key, ctx.options))
      return { type: 'absent', attribute: key };
    if (isLocalizationsKey(ctx, key)) return resolveLocalizations(ctx, value, at, depth + 1, RESOLVERS);
    const resolved = resolveField(ctx.registry, ctx.uid, key, at, 'filters', ctx.options);
    if ('through' in resolved)
      return resolveThrough(ctx, key, resolved.through.attribute, value, at, depth + 1, RESOLVERS);
    return resolveOperators(resolved.field, value, at, depth + 1);
  });
  return group('and', nodes);
}

/** What follows an attribute: an object of operators, a bare array (`$in`) or a bare value (`$eq`). */
function resolveOperators(field: FieldRef, value: unknown, path: string, depth: number): FilterNode | undefined {
  checkDepth(depth);
  const list = asArray(value);
  if (list) return condition(field, '$in', list, path);
  if (!isPlainObject(value)) return condition(field, '$eq', value, path);
  return group(
    'and',
    Object.entries(value).map(([op, inner]) => {
      if (inner === undefined) return undefined;
      const at = join(path, op);
      if (op === '$not') {
        const node = resolveOperators(field, inner, at, depth + 1);
        return node && { type: 'not', node };
      }
      if (!OPERATORS.has(op) || (ORDERING.has(op) && isJsonField(field))) throw invalidField(op, at, 'filters', false);
      return condition(field, op as FilterOperator, inner, at);
    }),
  );
}

/** One operator applied to its value, cast; an array given to a single-value operator ORs them. */
function condition(field: FieldRef, op: FilterOperator, value: unknown, path: string): FilterNode | undefined {
  const at = path.split('.');
  if (op === '$null' || op === '$notNull')
    return { type: 'condition', field, operator: op, value: castFlag(field, value, at) };
  if (op === '$in' || op === '$notIn') {
    // a single value is a list of one, as Strapi casts it
    const items = asArray(value) ?? [value];
    return {
      type: 'condition',
      field,
      operator: op,
      value: items.map((v, i) => castNonNull(field, v, [...at, String(i)])),
    };
  }
  if (op === '$between') {
    const items = asArray(value);
    if (items?.length !== 2) {
      throw validationError(`${path} expects an array of two values`, {
        key: field.name,
        path,
        source: 'query',
        param: 'filters',
      });
    }
    return {
      type: 'condition',
      field,
      operator: op,
      value: [castNonNull(field, items[0], [...at, '0']), castNonNull(field, items[1], [...at, '1'])],
    };
  }
  const list = asArray(value);
  if (list)
    return group(
      'or',
      list.map((v, i) => condition(field, op, v, join(path, String(i)))),
    );
  if (TEXT_OPERATORS.has(op))
    return { type: 'condition', field, operator: op as TextOperator, value: castText(field, value, at) };
  const operator = op as '$eq' | '$ne' | '$lt' | '$lte' | '$gt' | '$gte';
  if (value === null && (op === '$eq' || op === '$ne')) return { type: 'condition', field, operator, value: null };
  return { type: 'condition', field, operator, value: castNonNull(field, value, at) };
}

/** Only `$eq`/`$ne` give null a meaning (IS NULL / IS NOT NULL); elsewhere it is an error. */
function castNonNull(field: FieldRef, value: unknown, path: string[]): FilterValue {
  if (value === null || value === undefined) {
    throw validationError(`${path.join('.')} cannot be null`, {
      key: field.name,
      path: path.join('.'),
      source: 'query',
      param: 'filters',
    });
  }
  return castValue(field, value, path);
}

/** What filters-deep.ts recurses with. */
const RESOLVERS: Resolvers = { where: resolveWhere, operators: resolveOperators, checkDepth };
