import type { PaginationConfig } from '../query/pagination.ts';
import type { RawConfig } from './load.ts';
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from '../query/bounds.ts';

export interface RestApiConfig {
  /** where every plugin's content-API routes live (`api.rest.prefix`, default /api) */
  prefix: string;
  /** `api.rest.defaultLimit`, `maxLimit` (null: none) and `withCount`, with Strapi's defaults */
  pagination: PaginationConfig;
  /** `api.rest.maxQueryDepth` and `maxQueryConditions`: how much one request's filters and sorts may ask */
  limits: QueryLimits;
}

/** `config/api` → `rest`, read once for every plugin that serves content-API routes. */
export function restApiConfig(config: RawConfig): RestApiConfig {
  const rest = ((config.api as { rest?: Record<string, unknown> }).rest ?? {}) as {
    prefix?: string; defaultLimit?: number; maxLimit?: number | null; withCount?: boolean;
    maxQueryDepth?: number; maxQueryConditions?: number;
  };
  return {
    prefix: rest.prefix ?? '/api',
    pagination: {
      defaultLimit: rest.defaultLimit ?? 25,
      maxLimit: rest.maxLimit === undefined ? 100 : rest.maxLimit,
      withCount: rest.withCount ?? true,
    },
    limits: {
      maxDepth: rest.maxQueryDepth ?? DEFAULT_QUERY_LIMITS.maxDepth,
      maxConditions: rest.maxQueryConditions ?? DEFAULT_QUERY_LIMITS.maxConditions,
    },
  };
}
