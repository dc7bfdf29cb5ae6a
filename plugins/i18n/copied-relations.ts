import type { Knex } from 'knex';
import {
  type Attributes,
  COLUMNS,
  isLocalized,
  isPlainObject,
  type Registry,
  validationError,
} from '../../core/index.ts';

interface Ref {
  target: string;
  documentId: string;
}

const idsOf = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
};

/** Relations held inside the components and dynamic zones of `data`, in schema order. */
function collect(registry: Registry, attributes: Attributes, data: Record<string, unknown>, out: Ref[]): void {
  for (const [name, attr] of Object.entries(attributes)) {
    const value = data[name];
    if (attr.type === 'relation') {
      for (const documentId of idsOf(value)) out.push({ target: attr.target, documentId });
    } else if (attr.type === 'component') {
      const items = Array.isArray(value) ? value : [value];
      const attrs = registry.component(attr.component).attributes;
      for (const item of items) if (isPlainObject(item)) collect(registry, attrs, item, out);
    } else if (attr.type === 'dynamiczone' && Array.isArray(value)) {
      for (const item of value) {
        if (isPlainObject(item) && typeof item.__component === 'string' && attr.components.includes(item.__component)) {
          collect(registry, registry.component(item.__component).attributes, item, out);
        }
      }
    }
  }
}

/**
 * A new localization starts from its document's shared (non-localized) components and dynamic
 * zones, with the relations inside them. As in Strapi, such a relation must resolve in the new
 * locale: a localized target that has versions, but none in `locale`, refuses the write (400,
 * Strapi's message and empty details). A target with no version at all is a dangling id, which
 * Strapi's copy never sees (it copies populated relations); it is left as it is. Top-level
 * relations are localized and never copied. Targets are held FOR KEY SHARE, as every write's.
 */
export async function checkCopiedRelations(
  db: Knex,
  registry: Registry,
  attributes: Attributes,
  base: Record<string, unknown>,
  locale: string,
): Promise<void> {
  const refs: Ref[] = [];
  collect(registry, attributes, base, refs);
  const localized = refs.filter((r) => isLocalized(registry.contentType(r.target)));
  if (localized.length === 0) return;
  const found = new Map<string, Map<string, Set<string | null>>>();
  for (const target of new Set(localized.map((r) => r.target))) {
    const ids = [...new Set(localized.filter((r) => r.target === target).map((r) => r.documentId))];
    const table = registry.contentType(target).collectionName;
    const rows: Array<{ document_id: string; locale: string | null }> = await db(table)
      .select(COLUMNS.documentId, COLUMNS.locale)
      .whereIn(COLUMNS.documentId, ids)
      .orderBy(COLUMNS.id)
      .forKeyShare();
    const locales = new Map<string, Set<string | null>>();
    for (const row of rows) locales.set(row.document_id, (locales.get(row.document_id) ?? new Set()).add(row.locale));
    found.set(target, locales);
  }
  const missing = localized.find((r) => {
    const locales = found.get(r.target)?.get(r.documentId);
    return locales !== undefined && !locales.has(locale);
  });
  if (missing) throw validationError(`Document with id "${missing.documentId}", locale "${locale}" not found`);
}
