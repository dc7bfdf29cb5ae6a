import type { Registry } from '../content-types/registry.ts';
import { isAppError, validationError } from '../errors.ts';
import { resolvePopulate } from './populate.ts';
import { resolveFields } from './select-fields.ts';
import { resolveFilters } from './filters.ts';
import { resolveSort } from './sort.ts';
import { parsePagination, type PaginationConfig } from './pagination.ts';
import { checkQueryLimits, type QueryLimits } from './bounds.ts';
import { parseSearch } from './search.ts';
import type { Query, Status } from './types.ts';

/** Query parameters of Strapi's content API that Vellum does not answer yet: refused, never ignored. */
const NOT_YET = new Set(['publicationFilter']);

function parseStatus(raw: unknown): Status {
  if (raw === undefined) return 'published';
  if (raw === 'published' || raw === 'draft') return raw;
  throw validationError(`Invalid status: expected "draft" or "published"`, { key: 'status', source: 'query' });
}

/**
 * Resolve one query parameter. Its errors name it as the `param` (a `filters` inside
 * `populate` is reported as `populate`), as Strapi's query validation does.
 */
function within<T>(param: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (isAppError(err) && err.details.source === 'query' && 'param' in err.details) err.details.param = param;
    throw err;
  }
}

/** A locale code (en, fr, pt-BR, zh-Hant-TW); which ones exist is the i18n plugin's business. */
export const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

/** What a content-API list may ask for: `api.rest`'s pagination defaults and query bounds. */
export interface QueryConfig {
  pagination: PaginationConfig;
  limits: QueryLimits;
}

/**
 * The REST query string (already qs-parsed) as one resolved Query, within `config.limits`.
 * Unknown top-level parameters are ignored, as Strapi does without `strictParams`.
 */
export function parseRestQuery(
  registry: Registry,
  uid: string,
  raw: Record<string, unknown>,
  config: QueryConfig,
): Query {
  for (const key of Object.keys(raw)) {
    if (NOT_YET.has(key))
      throw validationError(`The "${key}" parameter is not supported by this version of Vellum`, {
        key,
        source: 'query',
      });
  }
  const locale = raw.locale;
  // '*': every locale (lists every version once; DELETE removes every locale)
  if (locale !== undefined && locale !== '*' && (typeof locale !== 'string' || !LOCALE_CODE.test(locale))) {
    throw validationError('Invalid locale', { key: 'locale', source: 'query' });
  }
  const query: Query = {
    populate: within('populate', () => resolvePopulate(registry, uid, raw.populate)),
    fields: within('fields', () => resolveFields(registry, uid, raw.fields, true)),
    pagination: parsePagination(raw.pagination, config.pagination),
    status: parseStatus(raw.status),
    locale,
  };
  const filters = within('filters', () => resolveFilters(registry, uid, raw.filters));
  if (filters) query.filters = filters;
  if (raw.sort !== undefined) query.sort = within('sort', () => resolveSort(registry, uid, raw.sort));
  const search = parseSearch(raw._q);
  if (search !== undefined) query.search = search;
  checkQueryLimits(query, config.limits);
  return query;
}
