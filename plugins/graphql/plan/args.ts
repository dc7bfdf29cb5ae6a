/**
 * A list field's arguments as the core's query: Strapi 4's GraphQL filters (`{ title: { eq } }`,
 * `and/or/not`) as the REST filters the core resolves (`$eq`, `$and`), sort strings, and
 * pagination with Strapi 4's defaults and caps (`withDefaultPagination`).
 */
import {
  type ContentType,
  type FilterNode,
  isLocalized,
  LOCALIZATIONS,
  paginationError,
  type Registry,
  resolveFilters,
  resolveSort,
  type SortSpec,
  type Status,
} from '../../../core/index.ts';
import { entityIdField } from '../schema/model.ts';

/**
 * An input object as graphql-js coerces it (with a null prototype, which `isPlainObject` refuses).
 */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A GraphQL operator's REST name (`eq` → `$eq`, `and` → `$and`). */
const operator = (op: string): string => `$${op}`;

/** A scalar's operators; field-level `and/or` are lists of values and `not` nests (as typed). */
function operators(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [op, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    out[operator(op)] = op === 'not' && isRecord(value) ? operators(value) : value;
  }
  return out;
}

/** The uid a filter key leads into (relation target, component), if it leads anywhere. */
function stepInto(registry: Registry, uid: string, key: string): string | undefined {
  const attrs = registry.attributesOf(uid);
  const attr = Object.hasOwn(attrs, key) ? attrs[key] : undefined;
  if (attr?.type === 'relation') return attr.target;
  if (attr?.type === 'component') return attr.component;
  // a localized type's other locales: the core filters through them as a relation to itself
  if (!attr && key === LOCALIZATIONS && registry.hasContentType(uid) && isLocalized(registry.contentType(uid)))
    return uid;
  return undefined;
}

/** GraphQL filters on `uid` as REST filters; names the core does not know are left for it to refuse. */
export function restFilters(registry: Registry, uid: string, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const document = registry.hasContentType(uid) ? registry.contentType(uid) : undefined;
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    if (key === 'and' || key === 'or') {
      const items = Array.isArray(value) ? value : [value];
      out[operator(key)] = items.filter(isRecord).map((item) => restFilters(registry, uid, item));
    } else if (key === 'not') {
      if (isRecord(value)) out.$not = restFilters(registry, uid, value);
    } else if (!isRecord(value)) {
      out[key] = value;
    } else if (key === 'id' && document && entityIdField(document) === 'documentId') {
      // an entity's id is its documentId
      out.documentId = operators(value);
    } else {
      const inner = stepInto(registry, uid, key);
      out[key] = inner ? restFilters(registry, inner, value) : operators(value);
    }
  }
  return out;
}

/** `filters` resolved for `uid` (undefined when absent or empty). */
export function filtersOf(registry: Registry, uid: string, raw: unknown): FilterNode | undefined {
  if (!isRecord(raw)) return undefined;
  return resolveFilters(registry, uid, restFilters(registry, uid, raw));
}

/** `sort: ["title:asc", "author.name:desc"]` resolved for `uid` (undefined when empty). */
export function sortOf(registry: Registry, uid: string, raw: unknown): SortSpec[] | undefined {
  const list = (Array.isArray(raw) ? raw : [raw]).filter((s): s is string => typeof s === 'string' && s !== '');
  if (list.length === 0) return undefined;
  return resolveSort(registry, uid, list);
}

export interface ListLimits {
  defaultLimit: number;
  /** null: no maximum */
  maxLimit: number | null;
}

/** A list's window: `limit` null means every item (only without a `maxLimit`). */
export interface ListWindow {
  start: number;
  limit: number | null;
}

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** `pagination: { page, pageSize }` or `{ start, limit }` (never both), with Strapi 4's defaults and caps. */
export function windowOf(raw: unknown, limits: ListLimits): ListWindow {
  const p = isRecord(raw) ? raw : {};
  const [page, pageSize, start, limit] = [int(p.page), int(p.pageSize), int(p.start), int(p.limit)];
  const pageStyle = page !== undefined || pageSize !== undefined;
  if (pageStyle && (start !== undefined || limit !== undefined)) {
    throw paginationError('Cannot use both page & offset pagination in the same query');
  }
  let from: number;
  let size: number;
  if (pageStyle) {
    size = pageSize ?? limits.defaultLimit;
    from = (Math.max(page ?? 1, 1) - 1) * size;
  } else {
    from = start ?? 0;
    size = limit ?? limits.defaultLimit;
  }
  // as Strapi's ensureMinValues and ensureMaxValues: -1 is "all", which a maxLimit caps
  const capped = size === -1 ? limits.maxLimit : Math.max(size, 1);
  return {
    start: Math.max(from, 0),
    limit: capped !== null && limits.maxLimit !== null ? Math.min(capped, limits.maxLimit) : capped,
  };
}

/**
 * A field's version argument as the core's status: Strapi 4's `publicationState` (LIVE, the
 * default, is the published versions; PREVIEW the drafts) or Strapi 5's `status` (PUBLISHED, DRAFT).
 */
export const statusOf = (args: Record<string, unknown>): Status =>
  args.publicationState === 'PREVIEW' || args.status === 'DRAFT' ? 'draft' : 'published';

/** The `locale` argument as the document service's (`all`: every locale). */
export const localeOf = (raw: unknown): string | undefined =>
  typeof raw !== 'string' ? undefined : raw === 'all' ? '*' : raw;

/** Whether a content-type's documents are addressed by documentId (else by row id). */
export const byDocumentId = (ct: ContentType): boolean => entityIdField(ct) === 'documentId';
