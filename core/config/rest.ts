import type { PaginationConfig } from '../query/pagination.ts';
import type { RawConfig } from './load.ts';

export interface RestApiConfig {
  /** where every plugin's content-API routes live (`api.rest.prefix`, default /api) */
  prefix: string;
  /** `api.rest.defaultLimit`, `maxLimit` (null: none) and `withCount`, with Strapi's defaults */
  pagination: PaginationConfig;
}

/** `config/api` → `rest`, read once for every plugin that serves content-API routes. */
export function restApiConfig(config: RawConfig): RestApiConfig {
  const rest = ((config.api as { rest?: Record<string, unknown> }).rest ?? {}) as {
    prefix?: string; defaultLimit?: number; maxLimit?: number | null; withCount?: boolean;
  };
  return {
    prefix: rest.prefix ?? '/api',
    pagination: {
      defaultLimit: rest.defaultLimit ?? 25,
      maxLimit: rest.maxLimit === undefined ? 100 : rest.maxLimit,
      withCount: rest.withCount ?? true,
    },
  };
}
