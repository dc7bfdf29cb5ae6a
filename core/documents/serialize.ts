import { isScalar, type Attributes, type ContentType } from '../content-types/types.ts';
import { iso, type Row } from './rows.ts';

export type Doc = Record<string, unknown>;

/** A stored `timestamp` (ISO text) as Strapi 5 returns it: epoch milliseconds, as a string (as select.ts does). */
const epochMs = (value: unknown): unknown => (typeof value === 'string' ? String(Date.parse(value)) : value);

function scalars(attributes: Attributes, data: Record<string, unknown>, out: Doc, raw: boolean): Doc {
  for (const [name, attr] of Object.entries(attributes)) {
    if (!isScalar(attr) || (!raw && (attr.private === true || attr.type === 'password'))) continue;
    out[name] = attr.type === 'timestamp' ? epochMs(data[name] ?? null) : (data[name] ?? null);
  }
  return out;
}

/**
 * A stored row as the flat document the API returns: id, documentId, every scalar
 * attribute (null when unset), the timestamps, and the locale of localized rows.
 * Private and password attributes only with `raw`, as the document service's reads.
 */
export function toDocument(ct: ContentType, row: Row, options: { raw: boolean }): Doc {
  const out = scalars(ct.attributes, row.data, { id: row.id, documentId: row.document_id }, options.raw);
  out.createdAt = iso(row.created_at);
  out.updatedAt = iso(row.updated_at);
  out.publishedAt = iso(row.published_at);
  // only localized types store a locale, and only once i18n is installed (brief: "present when")
  if (row.locale !== null) out.locale = row.locale;
  return out;
}
