import { invalidQueryKey, type AppError } from '../errors.ts';
import { FILE_UID, isLocalized, isScalar, isToMany, type Attribute } from '../content-types/types.ts';
import type { Registry } from '../content-types/registry.ts';
import type { ComponentStep, FieldRef, RelationStep, SystemField } from './types.ts';
import { valueColumnOf } from './table-sql.ts';

/** The query parameter a field is named in, for error details. */
export type FieldParam = 'filters' | 'sort';

export interface FieldOptions {
  /**
   * Let private attributes through. The content API never does (a filter on a private field
   * would leak it one comparison at a time); plugins reading their own types may.
   */
  allowPrivate?: boolean;
}

/**
 * The attribute names of a path written in a filter or sort (`$or.0.author.name.$eq` →
 * `author.name`): what Strapi reports as an error's `path`. Null when none is left. No
 * attribute name starts with `$` or a digit, so nothing else is dropped.
 */
export function attributePath(raw: string): string | null {
  const names = raw.split('.').filter((s) => s !== '' && !s.startsWith('$') && !/^\d/.test(s));
  return names.length > 0 ? names.join('.') : null;
}

/** The path `key` was found under, given its own (`author.nope` → `author`). */
export const parentOf = (raw: string, key: string): string =>
  raw.endsWith(key) ? raw.slice(0, -key.length).replace(/\.$/, '') : raw;

/**
 * An invalid key of a filter or sort, with Strapi's path: where the key was found for a name the
 * schema lacks, the key's own path for an attribute the query may not use (`known`).
 */
export const invalidField = (key: string, raw: string, param: FieldParam, known: boolean): AppError =>
  invalidQueryKey(key, attributePath(known ? raw : parentOf(raw, key)), param);

/** A scalar the query can read, or the attribute a path would have to go through. */
export type ResolvedField = { field: FieldRef } | { through: { name: string; attribute: Attribute } };

const SYSTEM_FIELDS: ReadonlySet<string> = new Set<SystemField>([
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
]);

const localized = (registry: Registry, uid: string): boolean =>
  registry.hasContentType(uid) && isLocalized(registry.contentType(uid));

/** `name` of `uid` as a filter or sort may read it, or undefined when it is not there for the query. */
function lookup(registry: Registry, uid: string, name: string, options: FieldOptions): ResolvedField | undefined {
  if (registry.hasContentType(uid)) {
    if (SYSTEM_FIELDS.has(name) && (name !== 'locale' || localized(registry, uid)))
      return { field: { kind: 'system', name: name as SystemField } };
  } else if (name === 'id') {
    // a component instance keeps its own id in its JSON
    return { field: { kind: 'system', name: 'id' } };
  }
  const attrs = registry.attributesOf(uid);
  const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  if (!attr || attr.type === 'password' || (attr.private === true && !options.allowPrivate)) return undefined;
  if (!isScalar(attr)) return { through: { name, attribute: attr } };
  const column = registry.hasContentType(uid) ? valueColumnOf(name, attr) : undefined;
  return { field: { kind: 'attribute', name, type: attr.type, ...(column ? { column } : {}) } };
}

/**
 * Resolve one name of `uid` (a content-type or component) in a filter or sort: a system field
 * (`locale` only on localized types, only `id` on components), a scalar attribute, or a
 * relation/media/component/dynamic zone to go through. Unknown, password and private names
 * are an "Invalid key" (private ones unless allowed).
 */
export function resolveField(
  registry: Registry,
  uid: string,
  name: string,
  path: string,
  param: FieldParam,
  options: FieldOptions = {},
): ResolvedField {
  const resolved = lookup(registry, uid, name, options);
  if (!resolved) throw invalidField(name, path, param, exists(registry, uid, name));
  return resolved;
}

/** Whether `name` is an attribute of `uid` (or a system field) the query may not use, rather than no name at all. */
function exists(registry: Registry, uid: string, name: string): boolean {
  if (registry.hasContentType(uid) && SYSTEM_FIELDS.has(name)) return true;
  return Object.hasOwn(registry.attributesOf(uid), name);
}

/** Whether `uid` has `name` for a query (dynamic zones ask this of each allowed component). */
export const hasField = (registry: Registry, uid: string, name: string, options: FieldOptions = {}): boolean =>
  lookup(registry, uid, name, options) !== undefined;

/**
 * The step a relation, media or component attribute leads through; undefined for a dynamic
 * zone, whose items have no single schema. Media need the upload plugin's file type.
 */
export function stepThrough(
  registry: Registry,
  name: string,
  attr: Attribute,
  path: string,
  param: FieldParam,
): RelationStep | ComponentStep | undefined {
  switch (attr.type) {
    case 'relation': {
      const owner = registry.owningSide(attr);
      const toMany = isToMany(attr);
      const link: RelationStep['link'] = owner
        ? { kind: 'inverse', owner: owner.attribute, ownerToMany: owner.toMany, toMany }
        : { kind: 'owning', toMany };
      return { type: 'relation', attribute: name, target: attr.target, link };
    }
    case 'media':
      if (!registry.hasContentType(FILE_UID)) throw invalidField(name, path, param, true);
      return {
        type: 'relation',
        attribute: name,
        target: FILE_UID,
        link: { kind: 'media', toMany: attr.multiple === true },
      };
    case 'component':
      return { type: 'component', attribute: name, component: attr.component, repeatable: attr.repeatable === true };
    default:
      return undefined;
  }
}

/** json and blocks hold any JSON: compared as jsonb, never ordered. */
export const isJsonField = (f: FieldRef): boolean =>
  f.kind === 'attribute' && (f.type === 'json' || f.type === 'blocks');
