/**
 * Resolving filters that go through an attribute: relations and media (the related
 * documents or files), components (their instance or instances) and dynamic zones (their
 * items). The nested filter is resolved against the schema it reaches, with the same rules.
 */
import type { Registry } from '../content-types/registry.ts';
import type { Attribute, DynamicZoneAttribute } from '../content-types/types.ts';
import { isPlainObject } from '../config/merge.ts';
import { hasField, invalidField, stepThrough, type FieldOptions } from './fields.ts';
import { asArray } from './filter-values.ts';
import { isLocalized } from '../content-types/types.ts';
import { LOCALIZATIONS, type FieldRef, type FilterNode, type RelationStep } from './types.ts';

/**
 * Where a level of `filters` sits: operators placed directly on a relation apply to the
 * related `id`; at the root and on a component they are invalid keys.
 */
export type WhereLevel = 'root' | 'relation' | 'component';

export interface WhereContext {
  registry: Registry;
  /** the content-type or component whose attributes this level names */
  uid: string;
  options: FieldOptions;
  level: WhereLevel;
  /** in a dynamic zone item: names another allowed component has, which are `absent` here rather than invalid */
  elsewhere?: ReadonlySet<string>;
}

/** The resolvers of filters.ts, handed in so the recursion needs no import cycle. */
export interface Resolvers {
  where(ctx: WhereContext, where: Record<string, unknown>, path: string, depth: number): FilterNode | undefined;
  operators(field: FieldRef, value: unknown, path: string, depth: number): FilterNode | undefined;
  checkDepth(depth: number): void;
}

// shared by every tree that tests a related id: frozen, so no caller can change it for the others
const ID: FieldRef = Object.freeze({ kind: 'system', name: 'id' });

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

/** An object of attributes and `$and/$or/$not` (not a bare value, nor an array in qs' index-keyed form). */
const isWhere = (value: unknown): value is Record<string, unknown> => isPlainObject(value) && !asArray(value);

/**
 * The filter `value` placed on the non-scalar attribute `name` of `ctx.uid`, or undefined
 * when it says nothing.
 */
export function resolveThrough(
  ctx: WhereContext,
  name: string,
  attr: Attribute,
  value: unknown,
  path: string,
  depth: number,
  r: Resolvers,
): FilterNode | undefined {
  const step = stepThrough(ctx.registry, name, attr, path, 'filters');
  if (!step) return dynamicZone(ctx, name, attr as DynamicZoneAttribute, value, path, depth, r);
  if (step.type === 'relation') return throughRelation(ctx, step, value, path, depth, r);
  // a component is not a value: only its attributes (and `id`) can be tested
  if (!isWhere(value)) throw invalidField(name, path, 'filters', true);
  const node = r.where({ ...ctx, uid: step.component, level: 'component', elsewhere: undefined }, value, path, depth);
  return node && { ...step, node };
}

/** The filter `value` on the related documents `step` reaches. */
function throughRelation(
  ctx: WhereContext,
  step: RelationStep,
  value: unknown,
  path: string,
  depth: number,
  r: Resolvers,
): FilterNode | undefined {
  // a bare value or array on a relation, like its operators, tests the related `id`
  const node = isWhere(value)
    ? r.where({ ...ctx, uid: step.target, level: 'relation', elsewhere: undefined }, value, path, depth)
    : r.operators(ID, value, path, depth);
  return node && { ...step, node };
}

/**
 * Whether `name` at this level is a localized type's `localizations` (its other locales),
 * which it filters through as a to-many relation to itself.
 */
export function isLocalizationsKey(ctx: WhereContext, name: string): boolean {
  if (name !== LOCALIZATIONS || !ctx.registry.hasContentType(ctx.uid)) return false;
  const ct = ctx.registry.contentType(ctx.uid);
  return isLocalized(ct) && !Object.hasOwn(ct.attributes, name);
}

/** `localizations`: the same document in its other locales matching `value`, as a relation level. */
export function resolveLocalizations(
  ctx: WhereContext,
  value: unknown,
  path: string,
  depth: number,
  r: Resolvers,
): FilterNode | undefined {
  const step: RelationStep = {
    type: 'relation',
    attribute: LOCALIZATIONS,
    target: ctx.uid,
    link: { kind: 'localizations', toMany: true },
  };
  return throughRelation(ctx, step, value, path, depth, r);
}

/**
 * The attribute names a level of `filters` tests, through its `$and/$or/$not` but not into
 * the attributes themselves, with where each is written.
 */
function namesIn(where: Record<string, unknown>, path: string, depth: number, r: Resolvers): Array<[string, string]> {
  r.checkDepth(depth);
  return Object.entries(where).flatMap(([key, value]): Array<[string, string]> => {
    const at = join(path, key);
    if (key === '$and' || key === '$or') {
      return (asArray(value) ?? []).flatMap((item, i) =>
        isPlainObject(item) ? namesIn(item, join(at, String(i)), depth + 1, r) : [],
      );
    }
    if (key === '$not') return isPlainObject(value) ? namesIn(value, at, depth + 1, r) : [];
    if (key.startsWith('$') || value === undefined) return [];
    return [[key, at]];
  });
}

/**
 * A dynamic zone: one branch per allowed component having at least one attribute the filter
 * names. In a branch, tests on the names its component lacks are `absent` (unknown, as SQL
 * reads a missing value), so `$or` may span components while an item never matches through
 * an attribute it does not have. A name no allowed component has is an invalid key.
 */
function dynamicZone(
  ctx: WhereContext,
  name: string,
  attr: DynamicZoneAttribute,
  value: unknown,
  path: string,
  depth: number,
  r: Resolvers,
): FilterNode | undefined {
  if (!isWhere(value)) throw invalidField(name, path, 'filters', true);
  const names = namesIn(value, path, depth, r);
  const has = (uid: string, n: string): boolean => hasField(ctx.registry, uid, n, ctx.options);
  for (const [n, at] of names) {
    if (!attr.components.some((uid) => has(uid, n))) throw invalidField(n, at, 'filters', false);
  }
  const elsewhere = new Set(names.map(([n]) => n));
  // with no names, the filter holds operators (refused below) or nothing
  const eligible =
    names.length === 0 ? attr.components : attr.components.filter((uid) => names.some(([n]) => has(uid, n)));
  const branches = eligible.flatMap((component) => {
    const node = r.where({ ...ctx, uid: component, level: 'component', elsewhere }, value, path, depth);
    return node ? [{ component, node }] : [];
  });
  return branches.length > 0 ? { type: 'dynamiczone', attribute: name, branches } : undefined;
}
