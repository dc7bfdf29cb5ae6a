import { invalidKey, validationError } from '../errors.ts';
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

/** Paths in errors are relative to the populate parameter, as Strapi reports them (`author.avatar`). */
const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function checkDepth(path: string): void {
  if (path.split('.').filter((p) => p !== 'populate' && p !== 'on').length > MAX_POPULATE_DEPTH) {
    throw validationError(`populate is nested more than ${MAX_POPULATE_DEPTH} levels deep`, { key: 'populate', source: 'query' });
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
export function resolvePopulate(registry: Registry, uid: string, raw: unknown, path = ''): PopulateTree {
  checkDepth(path);
  if (raw === undefined || raw === null || raw === '') return {};
  if (raw === '*' || raw === true || raw === 'true') return wildcard(registry, uid);
  if (typeof raw === 'string') return resolvePopulate(registry, uid, raw.split(','), path);
  const tree: PopulateTree = {};
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (typeof item !== 'string') throw validationError(`Invalid populate at ${path || 'populate'}`, { key: 'populate', path, source: 'query' });
      if (item === '*') Object.assign(tree, wildcard(registry, uid));
      else addDotted(registry, uid, tree, item.split('.'), path);
    }
    return tree;
  }
  if (!isPlainObject(raw)) throw validationError(`Invalid populate at ${path || 'populate'}`, { key: 'populate', path, source: 'query' });
  for (const [name, value] of Object.entries(raw)) {
    const attr = attribute(registry, uid, name, path);
    tree[name] = resolveNode(registry, attr, value, join(path, name));
  }
  return tree;
}

function attribute(registry: Registry, uid: string, name: string, path: string): Attribute {
  const attrs = registry.attributesOf(uid);
  if (name === LOCALIZATIONS && !Object.hasOwn(attrs, name) && hasLocalizations(registry, uid)) return localizationsAttribute(uid);
  const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  if (!attr || !isPopulatable(attr)) throw invalidKey(name, join(path, name), 'query', 'populate');
  return attr;
}

/** `a.b.c`: populate a, then b inside it, then c. */
function addDotted(registry: Registry, uid: string, tree: PopulateTree, parts: string[], path: string): void {
  const [head, ...rest] = parts;
  checkDepth(join(path, head));
  const attr = attribute(registry, uid, head, path);
  const node = (tree[head] ??= {});
  if (rest.length === 0) return;
  const [target] = targetUids(attr);
  if (!target || attr.type === 'dynamiczone') throw invalidKey(rest[0], join(join(path, head), rest[0]), 'query', 'populate');
  addDotted(registry, target, (node.populate ??= {}), rest, join(path, head));
}

/** The uid whose scalars `fields` names under `attr`: the relation's target, the file type, the component. */
function fieldsUid(attr: Attribute): string | undefined {
  if (attr.type === 'media') return FILE_UID;
  return attr.type === 'relation' || attr.type === 'component' ? targetUids(attr)[0] : undefined;
}

function truthy(raw: unknown, path: string): boolean {
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  throw validationError(`Invalid value at ${path}: expected true or false`, { key: path, source: 'query' });
}

/**
 * One populated attribute's options: `populate` (nested; on a dynamic zone, the shared
 * strategy), `on` (dynamic zones), `fields`, and for relations `filters`, `sort` and `count`.
 * Pagination inside populate is refused, as in Strapi 5.
 */
function resolveNode(registry: Registry, attr: Attribute, value: unknown, path: string): PopulateNode {
  if (value === true || value === 'true' || value === '*') return {};
  if (value === false || value === 'false') return {};
  if (!isPlainObject(value)) throw validationError(`Invalid populate at ${path || 'populate'}`, { key: 'populate', path, source: 'query' });
  const node: PopulateNode = {};
  const relationUid = attr.type === 'relation' ? attr.target : undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (key === 'populate') {
      const uids = targetUids(attr);
      if (attr.type === 'dynamiczone') {
        // shared strategy: the same populate applied to every component of the zone
        node.on = Object.fromEntries(uids.map((u) => [u, { populate: resolvePopulate(registry, u, inner, at) }]));
      } else if (uids.length === 1) {
        node.populate = resolvePopulate(registry, uids[0], inner, at);
      } else {
        throw invalidKey(key, at, 'query', 'populate');
      }
    } else if (key === 'on' && attr.type === 'dynamiczone' && isPlainObject(inner)) {
      node.on = {};
      for (const [component, sub] of Object.entries(inner)) {
        if (!attr.components.includes(component)) throw invalidKey(component, `${at}.${component}`, 'query', 'populate');
        node.on[component] = resolveNode(registry, { type: 'component', component }, sub, `${at}.${component}`);
      }
    } else if (key === 'fields' && fieldsUid(attr)) {
      node.fields = resolveFields(registry, fieldsUid(attr)!, inner, true, at);
    } else if (key === 'filters' && relationUid) {
      node.filters = resolveFilters(registry, relationUid, inner);
    } else if (key === 'sort' && relationUid) {
      node.sort = resolveSort(registry, relationUid, inner);
    } else if (key === 'count' && attr.type === 'relation' && isToMany(attr)) {
      node.count = truthy(inner, at);
    } else {
      throw invalidKey(key, at, 'query', 'populate');
    }
  }
  return node;
}
