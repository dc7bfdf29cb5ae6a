import { conflict, fieldErrors, isAppError, serviceUnavailable, validationError, type AppError } from '../errors.ts';
import type { ContentType } from '../content-types/types.ts';
import { singleTypeIndexName, uniqueIndexName } from '../../database/sync.ts';

interface PgError { code?: string; constraint?: string }

const UNIQUE_MESSAGE = 'This attribute must be unique';

const isPgError = (err: unknown): err is { code: string; constraint?: string } & Error =>
  err instanceof Error && typeof (err as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((err as PgError).code!);

/**
 * Turn what PostgreSQL refused into the client's mistake it really is: a unique index
 * violation names the attribute (a single type's second document is a 409); bad data the
 * validators let through (class 22) or a value too large for an index (54000) is a
 * ValidationError. Nothing of the SQL leaks.
 */
export function translateDatabaseError(err: unknown, ct: ContentType): unknown {
  const unavailable = databaseUnavailable(err);
  if (unavailable) return unavailable;
  if (isAppError(err) || !isPgError(err)) return err;
  if (err.code === '23505' && err.constraint === singleTypeIndexName(ct.collectionName)) {
    return conflict(`${ct.uid} is a single type: it already has a document in this locale`);
  }
  if (err.code === '23505' && err.constraint) {
    for (const name of Object.keys(ct.attributes)) {
      if (uniqueIndexName(ct.collectionName, name) === err.constraint) {
        return fieldErrors([{ path: [name], message: UNIQUE_MESSAGE, name: 'ValidationError' }]);
      }
    }
  }
  if (err.code.startsWith('22')) return validationError('Invalid value in request');
  if (err.code === '54000') return validationError('A value is too large to be stored or indexed');
  return err;
}

/**
 * A statement that ran past `database.statementTimeout` (or whose request was abandoned), or a
 * request that found no free connection in time: the server is overloaded for now, not broken,
 * so a 503 the client may retry. Null for any other error.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (isPgError(err) && err.code === '57014') return serviceUnavailable('The request took too long and was cancelled');
  if (err instanceof Error && err.name === 'KnexTimeoutError') return serviceUnavailable('The database is busy; try again');
  return null;
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
