/**
 * What a plugin may use of the core: the one module plugins (built-in or an app's own) import
 * from, so the core's files can move without breaking them. Anything not exported here is
 * internal. The repository's root `index.ts` re-exports it for apps.
 */

// Kernel: the app a plugin's hooks receive, and the plugin contract
export { createApp, PLATFORM_CONFIG_DIR } from './kernel/app.ts';
export type { App, AppOptions, AppLifecycle, LifecycleContext } from './kernel/app.ts';
export { resolveMiddlewares } from './kernel/registries.ts';
export { modulesIn, subdirectories } from './kernel/app-files.ts';
export type { MiddlewareDeps, MiddlewareFactory } from './kernel/registries.ts';
export type { PluginServices, StrapiFacade, StrapiPluginFacade } from './kernel/strapi-facade.ts';
export { definePlugin } from './kernel/plugin.ts';
export type { Plugin } from './kernel/plugin.ts';
export type { Endpoint, Endpoints } from './kernel/endpoints.ts';
export type { LogFormat } from './kernel/logger.ts';
export { createPolicyContext, policiesPass, resolvePolicies } from './kernel/policies.ts';
export type { PolicyContext, PolicyDeps, PolicyHandler, PolicyItem, ResolvedPolicy } from './kernel/policies.ts';
export { importUserModule } from './kernel/user-code.ts';
export type { DatabaseSummary } from '../database/describe.ts';

// Content-types: schema types and the registry plugins add their own types to
export { FILE_UID, isLocalized, isScalar, isToMany, isPopulatable } from './content-types/types.ts';
export type {
  Attribute,
  Attributes,
  ScalarAttribute,
  ScalarType,
  RelationAttribute,
  RelationKind,
  MediaAttribute,
  ComponentAttribute,
  DynamicZoneAttribute,
  ContentType,
  ContentTypeInfo,
  Component,
} from './content-types/types.ts';
export type { Registry } from './content-types/registry.ts';
export { allowedTypesIssue, fileCategory } from './content-types/media.ts';
export type { FileCategory } from './content-types/media.ts';

// Document service: the only read/write path, its middleware chain and its inputs' rules
export { WRITE_ACTIONS } from './documents/types.ts';
export type {
  Action,
  LocaleParam,
  ReadParams,
  FindOneParams,
  CreateParams,
  UpdateParams,
  DeleteParams,
  DeleteResult,
  VersionParams,
  Page,
  DocumentApi,
  DocumentContext,
  DocumentMiddleware,
  DocumentNext,
  DocumentService,
  AfterCommit,
  ActionContext,
  ParamsOf,
  ResultOf,
} from './documents/types.ts';
export type { Doc } from './documents/serialize.ts';
export { sanitizeInput } from './documents/sanitize.ts';
export { checkScalar } from './content-types/scalars.ts';
export type { ScalarCheck, CheckMode } from './content-types/scalars.ts';
export { DOCUMENT_ID } from './documents/relation-input.ts';
export { uniqueViolationOf } from './documents/db-errors.ts';

// Query parsing: REST parameters into a Query, filters, pagination and the bounds on a request
export { parseRestQuery, LOCALE_CODE } from './query/parse.ts';
export type { QueryConfig } from './query/parse.ts';
export { resolveFilters } from './query/filters.ts';
export { resolveSort } from './query/sort.ts';
export { paginationMeta } from './query/pagination.ts';
export type { PaginationConfig } from './query/pagination.ts';
export { checkQueryLimits, DEFAULT_QUERY_LIMITS } from './query/bounds.ts';
export type { QueryLimits } from './query/bounds.ts';
export { LOCALIZATIONS } from './query/types.ts';
export type {
  Query,
  PopulateNode,
  PopulateTree,
  Pagination,
  Status,
  FilterNode,
  SortSpec,
  Layout,
  LayoutEntry,
  JsonValue,
} from './query/types.ts';

// Rows and SQL: for a plugin that reads a content-type's table itself
export { scopeCondition } from './query/scope-sql.ts';
export { COLUMNS, quote, qualified } from './query/sql.ts';
export { DRAFT_FIRST } from './query/table-sql.ts';
export type { Scope } from './query/scope-sql.ts';
export { documentJson } from './query/populate-sql.ts';
export { copyAttributesToLocales } from './query/jsonb-writes.ts';
export type { Shape, SelectContext } from './query/populate-sql.ts';

// Authorization: what a request's credentials allow, applied to its query
export { authorizeQuery, assertQueryAccess } from './auth/query-access.ts';
export { findActionOf, MEDIA_FIND_ACTION } from './auth/populate-access.ts';
export type { RequestAuth } from './auth/types.ts';
// The response cache: what a cacheable route's read depended on
export {
  noteDocumentRead,
  noteQueryRead,
  noteRead,
  readDependencies,
  type Generations,
  type ReadShape,
} from './cache/index.ts';

// HTTP: routes, their context and route middleware; a bound on a request's concurrent work
export { mapLimit } from './map-limit.ts';
export type { HttpMethod, HttpServer, RequestContext, RequestState, Route, RouteMiddleware } from './http/server.ts';
// Strapi's `factories.createCoreRouter`, for an app's src/api/<api>/routes files
export { factories, isCoreRouter } from './http/core-router.ts';
export type { CoreRouteConfig, CoreRouter, CoreRouterOptions } from './http/core-router.ts';

// Errors: the one catalog every thrown error comes from
export {
  AppError,
  isAppError,
  fieldLabel,
  validationError,
  fieldErrors,
  invalidKey,
  invalidQueryKey,
  notFound,
  unauthorized,
  forbidden,
  policyFailed,
  methodNotAllowed,
  payloadTooLarge,
  headersTooLarge,
  requestTimeout,
  unsupportedMediaType,
  applicationError,
  paginationError,
  internalError,
  conflict,
  serviceUnavailable,
  rateLimited,
  ConfigurationError,
  configurationError,
} from './errors.ts';
export type { ErrorName, FieldIssue } from './errors.ts';

// Config readers: the app's config files, read and checked
export { isPlainObject } from './config/merge.ts';
export type { PlainObject } from './config/merge.ts';
export { restApiConfig } from './config/rest.ts';
export type { RestApiConfig } from './config/rest.ts';
export type { EnvFn } from './config/env.ts';
export type { ConfigName, RawConfig, ConfigOverrides, MiddlewaresConfig } from './config/load.ts';
export { parseConfig, expected } from './config/validate.ts';
export type { ConfigSchema, ConfigKey, ConfigPlace, ConfigSources } from './config/validate.ts';
export { serverConfigSchema, databaseConfigSchema, apiConfigSchema } from './config/schemas.ts';
export type { ServerConfig, DatabaseConfig, ApiConfig } from './config/schemas.ts';
// zod, which config schemas are written with: the version `app.pluginConfig(name, schema)` reads
export { z } from 'zod';
