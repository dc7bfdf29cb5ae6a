import { paginationError, validationError } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';
import type { Pagination } from './types.ts';

export interface PaginationConfig {
  defaultLimit: number;
  /** null: no maximum */
  maxLimit: number | null;
  withCount: boolean;
}

const KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount']);

function int(raw: unknown, key: string): number {
  const s = typeof raw === 'number' ? String(raw) : raw;
  if (typeof s !== 'string' || !/^-?\d{1,9}$/.test(s))
    throw validationError(`Invalid pagination ${key}: ${JSON.stringify(raw)}`, { key: `pagination.${key}` });
  return Number(s);
}

function bool(raw: unknown): boolean {
  if (raw === true || raw === false) return raw;
  const s = String(raw).toLowerCase();
  if (['true', 't', '1'].includes(s)) return true;
  if (['false', 'f', '0'].includes(s)) return false;
  throw validationError('Invalid pagination withCount: expected a boolean', { key: 'pagination.withCount' });
}

/**
 * Strapi's pagination: `page`/`pageSize` or `start`/`limit` (never both), `withCount`,
 * `limit=-1` for "as many as allowed" (as Strapi documents it); sizes clamped to [1, maxLimit],
 * page to >= 1, start to >= 0.
 */
export function parsePagination(raw: unknown, config: PaginationConfig): Pagination {
  const p = raw === undefined ? {} : raw;
  if (!isPlainObject(p)) throw validationError('Invalid pagination parameter', { key: 'pagination' });
  for (const key of Object.keys(p))
    if (!KEYS.has(key))
      throw validationError(`Invalid key ${key}`, {
        key,
        path: `pagination.${key}`,
        source: 'query',
        param: 'pagination',
      });
  const withCount = p.withCount === undefined ? config.withCount : bool(p.withCount);
  const clamp = (n: number): number => Math.max(1, config.maxLimit === null ? n : Math.min(n, config.maxLimit));
  const pageStyle = p.page !== undefined || p.pageSize !== undefined;
  const offsetStyle = p.start !== undefined || p.limit !== undefined;
  if (pageStyle && offsetStyle) throw paginationError('Cannot use both page & offset pagination in the same query');
  if (offsetStyle) {
    const start = Math.max(0, p.start === undefined ? 0 : int(p.start, 'start'));
    const rawLimit = p.limit === undefined ? config.defaultLimit : int(p.limit, 'limit');
    const limit = rawLimit === -1 ? config.maxLimit : clamp(rawLimit);
    return { start, limit, style: 'offset', withCount };
  }
  // as Strapi 5.54 answers: a page below 1 is page 1, a page size below 1 (-1 too) is 1
  const page = Math.max(1, p.page === undefined ? 1 : int(p.page, 'page'));
  const pageSize = clamp(p.pageSize === undefined ? config.defaultLimit : int(p.pageSize, 'pageSize'));
  return { start: (page - 1) * pageSize, limit: pageSize, style: 'page', withCount };
}

/** `meta.pagination` in the style the client asked for. */
export function paginationMeta(p: Pagination, total: number | null): Record<string, number> {
  if (p.style === 'offset') {
    const meta: Record<string, number> = { start: p.start, limit: p.limit ?? -1 };
    if (total !== null) meta.total = total;
    return meta;
  }
  const pageSize = p.limit ?? 1;
  const meta: Record<string, number> = { page: Math.floor(p.start / pageSize) + 1, pageSize };
  if (total !== null) {
    meta.pageCount = Math.ceil(total / pageSize);
    meta.total = total;
  }
  return meta;
}
