import { conflict, isAppError, serviceUnavailable, uniqueValue, validationError, type AppError } from '../errors.ts';
import type { ContentType } from '../content-types/types.ts';
import { singleTypeIndexName, uniqueIndexName } from '../../database/sync.ts';
import { UNIQUE_MESSAGE } from './issues.ts';

interface PgError {
  code?: string;
  constraint?: string;
}

// The server cannot be reached, is going away or not accepting sessions yet (a restart), or the
// connection broke: class 08, admin/crash shutdown, cannot_connect_now, too many connections.
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// what pg throws, without a code, for a connection that broke under a query or before it
const BROKEN_CONNECTION = /Connection terminated|is not queryable/;

const isPgError = (err: unknown): err is { code: string; constraint?: string } & Error =>
  err instanceof Error && typeof (err as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((err as PgError).code!);

/**
 * The ValidationError of a unique index that refused `data` (the row being written), with the
 * value, as Strapi reports it; null for any other error.
 */
export function uniqueViolation(err: unknown, ct: ContentType, data: Record<string, unknown>): AppError | null {
  if (!isPgError(err) || err.code !== '23505' || !err.constraint) return null;
  for (const name of Object.keys(ct.attributes)) {
    if (uniqueIndexName(ct.collectionName, name) === err.constraint) {
      const value = data[name] ?? null;
      return uniqueValue({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError', value }, err);
    }
  }
  return null;
}

/**
 * Turn what PostgreSQL refused into the client's mistake it really is: a unique index
 * violation names the attribute (a single type's second document is a 409); bad data the
 * validators let through (class 22) or a value too large for an index (54000) is a
 * ValidationError. Nothing of the SQL leaks to the client; the error made keeps PostgreSQL's
 * as its `cause`, which the HTTP layer logs at debug level.
 */
export function translateDatabaseError(err: unknown, ct: ContentType): unknown {
  if (isAppError(err)) return err;
  const unavailable = databaseUnavailable(err);
  if (unavailable) return unavailable;
  if (!isPgError(err)) return err;
  if (err.code === '23505' && err.constraint === singleTypeIndexName(ct.collectionName)) {
    return conflict(`${ct.uid} is a single type: it already has a document in this locale`, { cause: err });
  }
  if (err.code === '23505' && err.constraint) {
    for (const name of Object.keys(ct.attributes)) {
      if (uniqueIndexName(ct.collectionName, name) === err.constraint) {
        return uniqueValue({ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError' }, err);
      }
    }
  }
  if (err.code.startsWith('22')) {
    return validationError('Invalid value in request', {}, { code: 'INVALID_VALUE', cause: err });
  }
  if (err.code === '54000') {
    return validationError('A value is too large to be stored or indexed', {}, { code: 'VALUE_TOO_LARGE', cause: err });
  }
  return err;
}

/**
 * The attribute whose unique index refused a write, when `err` is that refusal (as
 * `translateDatabaseError` reports it); null for any other error. For callers that answer a
 * lost race on a unique value with their own message.
 */
export function uniqueViolationOf(err: unknown): string | null {
  if (!isAppError(err) || err.name !== 'ValidationError') return null;
  const errors = err.details.errors;
  if (!Array.isArray(errors) || errors.length !== 1) return null;
  const issue = errors[0] as { path?: unknown[]; message?: unknown };
  return issue.message === UNIQUE_MESSAGE && typeof issue.path?.[0] === 'string' ? issue.path[0] : null;
}

/**
 * A 503 ServiceUnavailableError when `err` says the database cannot answer right now (down,
 * restarting, refusing sessions, no connection to be had in time, or a statement cancelled for
 * taking too long): the client may retry, unlike a 500. Null for any other error.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (!(err instanceof Error)) return null;
  const code = (err as PgError).code;
  // past `database.statementTimeout`, or cancelled because its request was abandoned or the app is stopping
  if (code === '57014') {
    return serviceUnavailable('The request took too long and was cancelled', { code: 'STATEMENT_TIMEOUT', cause: err });
  }
  const down =
    (typeof code === 'string' && (UNAVAILABLE_ERRNO.has(code) || UNAVAILABLE_SQLSTATE.test(code))) ||
    err.name === 'KnexTimeoutError' ||
    BROKEN_CONNECTION.test(err.message);
  return down ? serviceUnavailable('The database is unavailable; try again shortly', { cause: err }) : null;
}
