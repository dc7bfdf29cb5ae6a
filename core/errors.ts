/**
 * The one error catalog. Every error Vellum throws on purpose is an `AppError` made here;
 * the HTTP layer turns it into Strapi's envelope `{data:null, error:{status,name,message,details}}`.
 * Anything else that escapes is an internal error and is answered as a bare 500.
 * Each entry also has a stable `code` (README, *Errors*) for code, logs and GraphQL's
 * `extensions`; it stays out of the HTTP envelope, which is exactly Strapi's. An error made
 * from another one (a database error translated, a file that failed to load) keeps it as `cause`.
 */

export type ErrorName =
  | 'ValidationError'
  | 'PaginationError'
  | 'ApplicationError'
  | 'UnauthorizedError'
  | 'ForbiddenError'
  | 'PolicyError'
  | 'NotFoundError'
  | 'MethodNotAllowedError'
  | 'ConflictError'
  | 'RequestTimeoutError'
  | 'PayloadTooLargeError'
  | 'UnsupportedMediaTypeError'
  | 'RateLimitError'
  | 'RequestHeaderFieldsTooLargeError'
  | 'InternalServerError'
  | 'ServiceUnavailableError';

const STATUS: Record<ErrorName, number> = {
  ValidationError: 400,
  PaginationError: 400,
  ApplicationError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  PolicyError: 403,
  NotFoundError: 404,
  MethodNotAllowedError: 405,
  ConflictError: 409,
  RequestTimeoutError: 408,
  PayloadTooLargeError: 413,
  UnsupportedMediaTypeError: 415,
  RateLimitError: 429,
  RequestHeaderFieldsTooLargeError: 431,
  InternalServerError: 500,
  ServiceUnavailableError: 503,
};

/**
 * What went wrong, for machines: one per catalog entry below, stable across versions. Several
 * codes share a name and status (a unique value and a bad key are both 400 ValidationErrors).
 */
export type ErrorCode =
  | 'VALIDATION'
  | 'INVALID_FIELDS'
  | 'INVALID_KEY'
  | 'UNIQUE'
  | 'INVALID_VALUE'
  | 'VALUE_TOO_LARGE'
  | 'PAGINATION'
  | 'APPLICATION'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'POLICY'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'REQUEST_TIMEOUT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'HEADERS_TOO_LARGE'
  | 'INTERNAL'
  | 'UNAVAILABLE'
  | 'STATEMENT_TIMEOUT'
  | 'LOCK_TIMEOUT';

/** The code of an error made with no more specific one: one per name. */
const DEFAULT_CODE: Record<ErrorName, ErrorCode> = {
  ValidationError: 'VALIDATION',
  PaginationError: 'PAGINATION',
  ApplicationError: 'APPLICATION',
  UnauthorizedError: 'UNAUTHORIZED',
  ForbiddenError: 'FORBIDDEN',
  PolicyError: 'POLICY',
  NotFoundError: 'NOT_FOUND',
  MethodNotAllowedError: 'METHOD_NOT_ALLOWED',
  ConflictError: 'CONFLICT',
  RequestTimeoutError: 'REQUEST_TIMEOUT',
  PayloadTooLargeError: 'PAYLOAD_TOO_LARGE',
  UnsupportedMediaTypeError: 'UNSUPPORTED_MEDIA_TYPE',
  RateLimitError: 'RATE_LIMITED',
  RequestHeaderFieldsTooLargeError: 'HEADERS_TOO_LARGE',
  InternalServerError: 'INTERNAL',
  ServiceUnavailableError: 'UNAVAILABLE',
};

/** What an error may say beyond its name, message and details. */
export interface ErrorOptions {
  /** the catalog entry's own code, when its name's default is not precise enough */
  code?: ErrorCode;
  /** the error this one was made from (kept for logs, never sent to a client) */
  cause?: unknown;
}

/** One problem inside a ValidationError, in the shape Strapi's yup formatter gives. */
export interface FieldIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
  value?: unknown;
}

/** A path as yup (so Strapi) writes it in messages: `variants[0].label`, never `variants.0.label`. */
export function fieldLabel(path: string[]): string {
  return path.reduce((label, key) => (/^\d+$/.test(key) ? `${label}[${key}]` : label ? `${label}.${key}` : key), '');
}

export class AppError extends Error {
  readonly status: number;
  override readonly name: ErrorName;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(name: ErrorName, message: string, details: Record<string, unknown> = {}, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = name;
    this.status = STATUS[name];
    this.code = options.code ?? DEFAULT_CODE[name];
    this.details = details;
  }

  /** Strapi's envelope `error`: exactly these four keys (no code, no cause). */
  toJSON(): { status: number; name: ErrorName; message: string; details: Record<string, unknown> } {
    return { status: this.status, name: this.name, message: this.message, details: this.details };
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/** A single validation failure, or several collected ones (`details.errors`). */
export function validationError(
  message: string,
  details: Record<string, unknown> = {},
  options: ErrorOptions = {},
): AppError {
  return new AppError('ValidationError', message, details, options);
}

/** Body validation with every problem listed; the message is the first one, as Strapi does. */
export function fieldErrors(issues: FieldIssue[], options: ErrorOptions = {}): AppError {
  const message = issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`;
  return new AppError('ValidationError', message, { errors: issues }, { code: 'INVALID_FIELDS', ...options });
}

/** A value a unique attribute already has (PostgreSQL's unique index refused it), as Strapi reports it. */
export function uniqueValue(issue: FieldIssue, cause?: unknown): AppError {
  return fieldErrors([issue], { code: 'UNIQUE', cause });
}

/** A request key (query or body) that does not exist on the schema: Strapi 5's "Invalid key". */
export function invalidKey(key: string, path: string, source: 'query' | 'body', param?: string): AppError {
  const details: Record<string, unknown> = { key, path, source };
  if (param) details.param = param;
  return new AppError('ValidationError', `Invalid key ${key}`, details, { code: 'INVALID_KEY' });
}

/**
 * A query parameter's key that is not there (or not for this caller): Strapi 5's "Invalid key".
 * `path` is where Strapi's traversal was, as attribute names only: the attribute holding an
 * unknown key (null at the top of the parameter), or the key's own path when it is an attribute
 * the query may not use. `param` is the query parameter the key was found in.
 */
export function invalidQueryKey(key: string, path: string | null, param: string): AppError {
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  return new AppError('ValidationError', message, { key, path, source: 'query', param }, { code: 'INVALID_KEY' });
}

export const notFound = (message = 'Not Found', details: Record<string, unknown> = {}): AppError =>
  new AppError('NotFoundError', message, details);

/** Authenticated, but not allowed to do this (a permission action the role or token lacks). */
/** No credentials where the route needs some, or credentials that do not hold (Strapi's wording). */
export const unauthorized = (message = 'Missing or invalid credentials'): AppError =>
  new AppError('UnauthorizedError', message);

export const forbidden = (message = 'Forbidden', details: Record<string, unknown> = {}): AppError =>
  new AppError('ForbiddenError', message, details);

/**
 * A route's or resolver's policy refused the request: Strapi's PolicyError (a ForbiddenError there),
 * the one 403 whose message a policy may choose and the client sees.
 */
export const policyFailed = (message = 'Policy Failed', details: Record<string, unknown> = {}): AppError =>
  new AppError('PolicyError', message, details);

export const methodNotAllowed = (): AppError => new AppError('MethodNotAllowedError', 'Method Not Allowed');

export const payloadTooLarge = (message = 'Payload Too Large'): AppError =>
  new AppError('PayloadTooLargeError', message);

/** The request line or headers exceed what Node's HTTP parser accepts (a huge URL, say). */
export const headersTooLarge = (): AppError =>
  new AppError('RequestHeaderFieldsTooLargeError', 'Request Header Fields Too Large');

/** The client took longer than the server's request timeout to send its request. */
export const requestTimeout = (): AppError => new AppError('RequestTimeoutError', 'Request Timeout');

export const unsupportedMediaType = (message = 'Unsupported Media Type'): AppError =>
  new AppError('UnsupportedMediaTypeError', message);

export const applicationError = (
  message: string,
  details: Record<string, unknown> = {},
  options: ErrorOptions = {},
): AppError => new AppError('ApplicationError', message, details, options);

export const paginationError = (message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError('PaginationError', message, details);

export const internalError = (): AppError => new AppError('InternalServerError', 'Internal Server Error');

/** Two requests changed the same rows at once and this one still lost after its retries: try again. */
export const conflict = (
  message = 'The document was changed by another request at the same time; try again',
  options: ErrorOptions = {},
): AppError => new AppError('ConflictError', message, {}, options);

/**
 * The database could not answer in time (a full pool, a restarting database: UNAVAILABLE; a
 * statement past its timeout or cancelled: STATEMENT_TIMEOUT; a lock wait: LOCK_TIMEOUT).
 */
export const serviceUnavailable = (message = 'Service Unavailable', options: ErrorOptions = {}): AppError =>
  new AppError('ServiceUnavailableError', message, {}, options);

/** Too many requests for one identifier, route and client address (the auth routes' rate limit). */
export const rateLimited = (message = 'Too many requests, please try again later.'): AppError =>
  new AppError('RateLimitError', message);

/**
 * A mistake in the app itself (a bad schema, a missing plugin dependency, bad config): it stops
 * start-up with a message meant for the developer, never reaches an HTTP client.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  readonly code: ConfigurationCode;

  constructor(message: string, options: { code?: ConfigurationCode; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? 'CONFIGURATION';
  }
}

/**
 * CONFIGURATION: a bad schema, config file, dependency or API use; PLUGIN_FAILED: a plugin's
 * `register` or `bootstrap` threw (its error is the cause); APP_FAILED: an app whose `start()`
 * failed was asked to start or listen again.
 */
export type ConfigurationCode = 'CONFIGURATION' | 'PLUGIN_FAILED' | 'APP_FAILED';

export const configurationError = (
  message: string,
  options: { code?: ConfigurationCode; cause?: unknown } = {},
): ConfigurationError => new ConfigurationError(message, options);
