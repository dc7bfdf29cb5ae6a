import type { PaginationConfig } from '../query/pagination.ts';
import type { QueryLimits } from '../query/bounds.ts';
import type { RawConfig } from './load.ts';
import { apiConfigSchema } from './schemas.ts';
import { parseConfig } from './validate.ts';

export interface RestApiConfig {
  /** where every plugin's content-API routes live (`api.rest.prefix`, default /api) */
  prefix: string;
  /** `api.rest.defaultLimit`, `maxLimit` (null: none) and `withCount`, with Strapi's defaults */
  pagination: PaginationConfig;
  /** `api.rest.maxQueryDepth` and `maxQueryConditions`: how much one request's filters and sorts may ask */
  limits: QueryLimits;
}

/**
 * `config/api` → `rest`, read once for every plugin that serves content-API routes. An app's
 * config was checked (naming the file) when it was created: this only applies the defaults.
 */
export function restApiConfig(config: RawConfig): RestApiConfig {
  const { rest } = parseConfig(apiConfigSchema, config.api, { name: 'api' });
  return {
    prefix: rest.prefix,
    pagination: { defaultLimit: rest.defaultLimit, maxLimit: rest.maxLimit, withCount: rest.withCount },
    limits: { maxDepth: rest.maxQueryDepth, maxConditions: rest.maxQueryConditions },
  };
}
