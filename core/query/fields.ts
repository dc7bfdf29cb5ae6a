import { invalidKey } from '../errors.ts';
import { isScalar, type Attribute } from '../content-types/types.ts';
import type { Registry } from '../content-types/registry.ts';
import type { FieldRef, SystemField } from './types.ts';

/** The query parameter a field is named in, for error details. */
export type FieldParam = 'filters' | 'sort';

export interface FieldOptions {
  /**
   * Let private attributes through. The content API never does (a filter on a private field
   * would leak it one comparison at a time); plugins reading their own types may.
   */
  allowPrivate?: boolean;
}

/** A scalar the query can read, or the attribute a path would have to go through. */
export type ResolvedField = { field: FieldRef } | { through: { name: string; attribute: Attribute } };

const SYSTEM_FIELDS: ReadonlySet<string> = new Set<SystemField>(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);

const localized = (registry: Registry, uid: string): boolean =>
  registry.hasContentType(uid) && registry.contentType(uid).pluginOptions.i18n?.localized === true;

/**
 * Resolve one name of `uid` in a filter or sort: a system field (`locale` only on localized
 * types), a scalar attribute, or a relation/media/component/dynamic zone to go through.
 * Unknown, password and private names are an "Invalid key" (private ones unless allowed).
 */
export function resolveField(
  registry: Registry, uid: string, name: string, path: string, param: FieldParam, options: FieldOptions = {},
): ResolvedField {
  // system fields exist on document rows only; component instances will bring their own `id`
  if (registry.hasContentType(uid) && SYSTEM_FIELDS.has(name) && (name !== 'locale' || localized(registry, uid))) {
    return { field: { kind: 'system', name: name as SystemField } };
  }
  const attrs = registry.attributesOf(uid);
  const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
  if (!attr || attr.type === 'password' || (attr.private === true && !options.allowPrivate)) {
    throw invalidKey(name, path, 'query', param);
  }
  if (!isScalar(attr)) return { through: { name, attribute: attr } };
  return { field: { kind: 'attribute', name, type: attr.type } };
}

/** json and blocks hold any JSON: compared as jsonb, never ordered. */
export const isJsonField = (f: FieldRef): boolean => f.kind === 'attribute' && (f.type === 'json' || f.type === 'blocks');
