import { isAppError, type AppError } from '../../core/errors.ts';

/** The AppError `fn` throws, as its JSON (status, name, message, details); fails when it throws none. */
export function errorOf(fn: () => unknown): ReturnType<AppError['toJSON']> {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err.toJSON();
    throw err;
  }
  throw new Error('expected an error');
}
