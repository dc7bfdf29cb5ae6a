import { invalidQueryKey, validationError } from '../errors.ts';
import { isScalar } from '../content-types/types.ts';
import type { Registry } from '../content-types/registry.ts';

/** Besides scalar attributes, what `fields` may name on a document (id and documentId are always there). */
const DOCUMENT_FIELDS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale']);

/**
 * Resolve `fields` (root or inside populate) for `uid`: `*`, a comma list or an array of
 * scalar attribute names. Relations, media, components and dynamic zones are populated, not
 * selected; private and password attributes are refused when `redact` (the content API).
 * Returns undefined for "all". As in Strapi, an error's path is the name itself when it is an
 * attribute that cannot be selected, null for a name the schema lacks (at any populate depth).
 */
export function resolveFields(registry: Registry, uid: string, raw: unknown, redact: boolean): string[] | undefined {
  if (raw === undefined || raw === '*') return undefined;
  const names =
    typeof raw === 'string'
      ? raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : raw;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw validationError('Invalid fields parameter', { key: 'fields', source: 'query' });
  }
  if (names.includes('*')) return undefined;
  const document = registry.hasContentType(uid);
  const attrs = registry.attributesOf(uid);
  for (const name of names as string[]) {
    if (document && DOCUMENT_FIELDS.has(name)) continue;
    if (!document && (name === 'id' || name === 'documentId')) continue;
    const attr = Object.hasOwn(attrs, name) ? attrs[name] : undefined;
    if (!attr || !isScalar(attr) || attr.type === 'password' || (redact && attr.private)) {
      throw invalidQueryKey(name, attr ? name : null, 'fields');
    }
  }
  return [...new Set(names as string[])];
}
