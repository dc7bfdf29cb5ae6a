import { fieldErrors, isAppError, validationError } from '../errors.ts';
import type { ContentType } from '../content-types/types.ts';
import { uniqueIndexName } from '../../database/sync.ts';

interface PgError { code?: string; constraint?: string }

const isPgError = (err: unknown): err is { code: string; constraint?: string } & Error =>
  err instanceof Error && typeof (err as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((err as PgError).code!);

/**
 * Turn what PostgreSQL refused into the client's mistake it really is: a unique index
 * violation names the attribute; bad data the validators let through (class 22) or a value
 * too large for an index (54000) is a ValidationError. Nothing of the SQL leaks.
 */
export function translateDatabaseError(err: unknown, ct: ContentType): unknown {
  if (isAppError(err) || !isPgError(err)) return err;
  if (err.code === '23505' && err.constraint) {
    for (const name of Object.keys(ct.attributes)) {
      if (uniqueIndexName(ct.collectionName, name) === err.constraint) {
        return fieldErrors([{ path: [name], message: 'This attribute must be unique', name: 'ValidationError' }]);
      }
    }
  }
  if (err.code.startsWith('22')) return validationError('Invalid value in request');
  if (err.code === '54000') return validationError('A value is too large to be stored or indexed');
  return err;
}
