/**
 * The one error catalog. Every error Vellum throws on purpose is an `AppError` made here;
 * the HTTP layer turns it into Strapi's envelope `{data:null, error:{status,name,message,details}}`.
 * Anything else that escapes is an internal error and is answered as a bare 500.
 */

export type ErrorName =
  | 'ValidationError'
  | 'PaginationError'
  | 'ApplicationError'
  | 'UnauthorizedError'
  | 'ForbiddenError'
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
  readonly details: Record<string, unknown>;

  constructor(name: ErrorName, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = name;
    this.status = STATUS[name];
    this.details = details;
  }

  toJSON(): { status: number; name: ErrorName; message: string; details: Record<string, unknown> } {
    return { status: this.status, name: this.name, message: this.message, details: this.details };
  }
}

export const isAppError = (err: unknown): err is AppError => err instanceof AppError;

/** A single validation failure, or several collected ones (`details.errors`). */
export function validationError(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('ValidationError', message, details);
}

/** Body validation with every problem listed; the message is the first one, as Strapi does. */
export function fieldErrors(issues: FieldIssue[]): AppError {
  const message = issues.length === 1 ? issues[0].message : `${issues.length} errors occurred`;
  return new AppError('ValidationError', message, { errors: issues });
}

/** A request key (query or body) that does not exist on the schema: Strapi 5's "Invalid key". */
export function invalidKey(key: string, path: string, source: 'query' | 'body', param?: string): AppError {
  const details: Record<string, unknown> = { key, path, source };
  if (param) details.param = param;
  return new AppError('ValidationError', `Invalid key ${key}`, details);
}

/**
 * A query parameter's key that is not there (or not for this caller): Strapi 5's "Invalid key".
 * `path` is where Strapi's traversal was, as attribute names only: the attribute holding an
 * unknown key (null at the top of the parameter), or the key's own path when it is an attribute
 * the query may not use. `param` is the query parameter the key was found in.
 */
export function invalidQueryKey(key: string, path: string | null, param: string): AppError {
  const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  return new AppError('ValidationError', message, { key, path, source: 'query', param });
}

export const notFound = (message = 'Not Found', details: Record<string, unknown> = {}): AppError =>
  new AppError('NotFoundError', message, details);

/** Authenticated, but not allowed to do this (a permission action the role or token lacks). */
/** No credentials where the route needs some, or credentials that do not hold (Strapi's wording). */
export const unauthorized = (message = 'Missing or invalid credentials'): AppError => new AppError('UnauthorizedError', message);

export const forbidden = (message = 'Forbidden', details: Record<string, unknown> = {}): AppError =>
  new AppError('ForbiddenError', message, details);

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

export const applicationError = (message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError('ApplicationError', message, details);

export const paginationError = (message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError('PaginationError', message, details);

export const internalError = (): AppError => new AppError('InternalServerError', 'Internal Server Error');

/** Two requests changed the same rows at once and this one still lost after its retries: try again. */
export const conflict = (message = 'The document was changed by another request at the same time; try again'): AppError =>
  new AppError('ConflictError', message);

/** The database could not answer in time (a statement timeout, a full pool, a restarting database). */
export const serviceUnavailable = (message = 'Service Unavailable'): AppError =>
  new AppError('ServiceUnavailableError', message);

/** Too many requests for one identifier, route and client address (the auth routes' rate limit). */
export const rateLimited = (message = 'Too many requests, please try again later.'): AppError =>
  new AppError('RateLimitError', message);

/**
 * A mistake in the app itself (a bad schema, a missing plugin dependency, bad config): it stops
 * start-up with a message meant for the developer, never reaches an HTTP client.
 */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

export const configurationError = (message: string): ConfigurationError => new ConfigurationError(message);
