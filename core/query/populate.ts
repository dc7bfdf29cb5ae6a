import { invalidQueryKey, validationError } from '../errors.ts';
import { FILE_UID, isLocalized, isPopulatable, isToMany, type Attribute } from '../content-types/types.ts';
import { resolveFields } from './select-fields.ts';
import { resolveFilters } from './filters.ts';
import { resolveSort } from './sort.ts';
import type { Registry } from '../content-types/registry.ts';
import { LOCALIZATIONS, type PopulateNode, type PopulateTree } from './types.ts';
import { isPlainObject } from '../config/merge.ts';

/**
 * How many relations/components deep a populate may reach. The brief sets no limit, but each
 * level costs statements; a dotted path like `a.b.a.b…` (which qs' depth limit does not bound)
 * could otherwise ask for thousands.
 */
export const MAX_POPULATE_DEPTH = 20;

/**
 * Where a populate key sits, the two ways Strapi reports it: `raw`, every key written
 * (`author.populate.name`), and `attribute`, the attributes only (`author`; null at the top).
 */
interface At {
  raw: string;
  attribute: string | null;
}

const TOP: At = { raw: '', attribute: null };

const join = (path: string | null, key: string): string => (path ? `${path}.${key}` : key);

/** Inside the populated attribute `name` of `at`. */
const into = (at: At, name: string): At => ({ raw: join(at.raw, name), attribute: join(at.attribute, name) });

/** Past an option key (`populate`, `on`, a component uid): written, but not an attribute. */
const past = (at: At, key: string): At => ({ raw: join(at.raw, key), attribute: at.attribute });

/** A key that is not an option here, nor an attribute of the schema: reported where it was found. */
const unknownKey = (key: string, at: At): Error => invalidQueryKey(key, at.attribute, 'populate');

function checkDepth(path: string): void {
  if (path.split('.').filter((p) => p !== 'populate' && p !== 'on').length > MAX_POPULATE_DEPTH) {
    throw validationError(`populate is nested more than ${MAX_POPULATE_DEPTH} levels deep`, {
      key: 'populate',
      source: 'query',
    });
  }
}

/** The uids whose attributes apply under `attr` once populated. */
export function targetUids(attr: Attribute): string[] {
  switch (attr.type) {
    case 'relation':
      return [attr.target];
    case 'component':
      return [attr.component];
    case 'dynamiczone':
      return attr.components;
    default:
      return []; // media: a file has no populatable attributes here
  }
}

/** Localized content-types can populate their other locales (Strapi's `localizations`). */
const hasLocalizations = (registry: Registry, uid: string): boolean =>
  registry.hasContentType(uid) && isLocalized(registry.contentType(uid));

/** Every populatable attribute of `uid`, one level deep: what `populate=*` means. */
function wildcard(registry: Registry, uid: string): PopulateTree {
  const out: PopulateTree = {};
  for (const [name, attr] of Object.entries(registry.attributesOf(uid))) if (isPopulatable(attr)) out[name] = {};
  if (hasLocalizations(registry, uid)) out[LOCALIZATIONS] = {};
  return out;
}

/** `localizations` behaves like a to-many relation to the same content-type. */
const localizationsAttribute = (uid: string): Attribute => ({ type: 'relation', relation: 'oneToMany', target: uid });

/**
 * Resolve the `populate` parameter (after qs parsing) against the schema of `uid`:
 * `*`, a comma list, an array of (dotted) names, or an object of names with nested
 * `populate` / `on`. Unknown or non-populatable names are a ValidationError naming them.
 */
export function resolvePopulate(registry: Registry, uid: string, raw: unknown, at: At = TOP): PopulateTree {
  checkDepth(at.raw);
  if (raw === undefined || raw === null || raw === '') return {};
  if (raw === '*' || raw === true || raw === 'true') return wildcard(registry, uid);
  if (typeof raw === 'string') return resolvePopulate(registry, uid, raw.split(','), at);
  const tree: PopulateTree = {};
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (typeof item !== 'string') throw invalidPopulate(at.raw);
      // a dotted path is checked on its own, as Strapi does: its error paths start at its first name
      if (item === '*') Object.assign(tree, wildcard(registry, uid));
      else addDotted(registry, uid, tree, item.split('.'), '', at.raw);
    }
    return tree;
  }
  if (!isPlainObject(raw)) throw invalidPopulate(at.raw);
  for (const [name, value] of Object.entries(raw)) {
    const attr = attribute(registry, uid, name);
    // an attribute that cannot be populated is reported with the path as written, an unknown name where it was found
    if (attr === undefined) throw unknownKey(name, at);
    if (!isPopulatable(attr)) throw invalidQueryKey(name, join(at.raw, name), 'populate');
    tree[name] = resolveNode(registry, attr, value, into(at, name));
  }
  return tree;
}

const invalidPopulate = (path: string): Error =>
  validationError(`Invalid populate at ${path || 'populate'}`, { key: 'populate', path, source: 'query' });

/** `name` of `uid` (or its `localizations`), populatable or not; undefined when there is none. */
function attribute(registry: Registry, uid: string, name: string): Attribute | undefined {
  const attrs = registry.attributesOf(uid);
  if (name === LOCALIZATIONS && !Object.hasOwn(attrs, name) && hasLocalizations(registry, uid))
    return localizationsAttribute(uid);
  return Object.hasOwn(attrs, name) ? attrs[name] : undefined;
}

/** `a.b.c`: populate a, then b inside it, then c. Errors name the path down to the bad name. */
function addDotted(
  registry: Registry,
  uid: string,
  tree: PopulateTree,
  parts: string[],
  path: string,
  base: string,
): void {
  const [head, ...rest] = parts;
  const full = join(path, head);
  checkDepth(join(base, full));
  const attr = attribute(registry, uid, head);
  if (!attr || !isPopulatable(attr)) throw invalidQueryKey(head, full, 'populate');
  const node = (tree[head] ??= {});
  if (rest.length === 0) return;
  // a file has nothing to populate: the name before the dot is the one refused
  if (attr.type === 'media') throw invalidQueryKey(head, full, 'populate');
  const [target] = targetUids(attr);
  if (!target || attr.type === 'dynamiczone') throw invalidQueryKey(rest[0], join(full, rest[0]), 'populate');
  addDotted(registry, target, (node.populate ??= {}), rest, full, base);
}

/** The uid whose scalars `fields` names under `attr`: the relation's target, the file type, the component. */
function fieldsUid(attr: Attribute): string | undefined {
  if (attr.type === 'media') return FILE_UID;
  return attr.type === 'relation' || attr.type === 'component' ? targetUids(attr)[0] : undefined;
}

/** `count`'s value: boolean-like, or an invalid key as Strapi reports it. */
function truthy(raw: unknown, at: At): boolean {
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  throw unknownKey('count', at);
}

/**
 * One populated attribute's options: `populate` (nested; on a dynamic zone, the shared
 * strategy), `on` (dynamic zones), `fields`, and for relations `filters`, `sort` and `count`.
 * Pagination inside populate is refused, as in Strapi 5.
 */
function resolveNode(registry: Registry, attr: Attribute, value: unknown, at: At): PopulateNode {
  if (value === true || value === 'true' || value === '*') return {};
  if (value === false || value === 'false') return {};
  if (!isPlainObject(value)) throw invalidPopulate(at.raw);
  const node: PopulateNode = {};
  const relationUid = attr.type === 'relation' ? attr.target : undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'populate') {
      const uids = targetUids(attr);
      if (attr.type === 'dynamiczone') {
        // shared strategy: the same populate applied to every component of the zone
        const shared = past(at, key);
        node.on = Object.fromEntries(uids.map((u) => [u, { populate: resolvePopulate(registry, u, inner, shared) }]));
      } else if (uids.length === 1) {
        node.populate = resolvePopulate(registry, uids[0], inner, past(at, key));
      } else {
        throw unknownKey(key, at);
      }
    } else if (key === 'on' && attr.type === 'dynamiczone') {
      node.on = resolveOn(registry, attr.components, inner, past(at, key));
    } else if (key === 'fields' && fieldsUid(attr)) {
      node.fields = resolveFields(registry, fieldsUid(attr)!, inner, true);
    } else if (key === 'filters' && relationUid) {
      node.filters = resolveFilters(registry, relationUid, inner);
    } else if (key === 'sort' && relationUid) {
      node.sort = resolveSort(registry, relationUid, inner);
    } else if (key === 'count' && attr.type === 'relation' && isToMany(attr)) {
      node.count = truthy(inner, at);
    } else {
      throw unknownKey(key, at);
    }
  }
  return node;
}

/**
 * A dynamic zone's `on`: what to populate per component. A component the zone does not allow
 * is checked like the others but left out, as Strapi 5 does (200, its items are never
 * there); a uid that is no component at all is an invalid key.
 */
function resolveOn(registry: Registry, allowed: string[], raw: unknown, at: At): Record<string, PopulateNode> {
  if (!isPlainObject(raw)) throw invalidQueryKey('on', at.raw, 'populate');
  const on: Record<string, PopulateNode> = {};
  for (const [component, sub] of Object.entries(raw)) {
    if (!registry.hasComponent(component)) throw invalidQueryKey(component, join(at.raw, component), 'populate');
    const node = resolveNode(registry, { type: 'component', component }, sub, past(at, component));
    if (allowed.includes(component)) on[component] = node;
  }
  return on;
}
