/**
 * Errors as Strapi 4 formats them (`format-graphql-error.js`): its own errors rebuilt without
 * `path` or `locations`, `extensions: { error: { name, message, details }, code }` with
 * FORBIDDEN, BAD_USER_INPUT or STRAPI_<NAME>; GraphQL's own errors (a non-null field left null)
 * as they are. Anything else is an internal error, whose message is not shown (it is logged).
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { type AppError, isAppError } from '../../core/index.ts';

/** `PaginationError` → `PAGINATION_ERROR`. */
const upperSnake = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** A policy's refusal is a FORBIDDEN too, as in Strapi (v4 says "Forbidden access" for all three). */
const DENIED: ReadonlySet<string> = new Set(['ForbiddenError', 'UnauthorizedError', 'PolicyError']);

/** The extensions code Strapi 4 gives one of its errors. */
export function codeOf(err: AppError): string {
  if (DENIED.has(err.name)) return 'FORBIDDEN';
  if (err.name === 'ValidationError') return 'BAD_USER_INPUT';
  return `STRAPI_${upperSnake(err.name)}`;
}

/** One of Vellum's errors as Strapi 4's GraphQL answers it. */
export function strapiError(err: AppError): GraphQLFormattedError {
  const denied = codeOf(err) === 'FORBIDDEN';
  const message = denied ? 'Forbidden access' : err.message;
  const name = denied ? 'ForbiddenError' : err.name;
  const details = denied ? {} : err.details;
  return { message, extensions: { error: { name, message, details }, code: codeOf(err) } };
}

/** The FORBIDDEN error of a nested field the caller may not read (Strapi's has no path either). */
export const forbiddenError = (): GraphQLFormattedError =>
  strapiError({ name: 'ForbiddenError', message: 'Forbidden access', details: {} } as AppError);

/** An error a request-level failure answers with (parse, validation, limits): `code` names the kind. */
export function requestError(message: string, code: string, err?: GraphQLError): GraphQLFormattedError {
  const out: GraphQLFormattedError = { message, extensions: { code } };
  return err?.locations ? { ...out, locations: err.locations } : out;
}

/**
 * Anything a root field threw, formatted. `log` hears of errors that are not Vellum's own (a
 * bug, a lost connection): the client only reads "Internal Server Error".
 */
export function formatError(err: unknown, log: (err: unknown) => void): GraphQLFormattedError {
  const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
  if (isAppError(original)) return strapiError(original);
  if (err instanceof GraphQLError && !(original instanceof FieldFailure)) {
    // graphql's own (a non-null field left null, a value its type cannot show), or a GraphQLError an
    // app's resolver threw to be shown, as Apollo passes them (anything else an app's code throws
    // is made a FieldFailure by its wrapper: extension/wrap.ts)
    const formatted = err.toJSON();
    return { ...formatted, extensions: { ...formatted.extensions, code: 'INTERNAL_SERVER_ERROR' } };
  }
  log(original instanceof FieldFailure ? original.cause : original);
  const out: GraphQLFormattedError = { message: 'Internal Server Error' };
  return { ...out, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

/** What a resolver of ours threw that is not one of Vellum's errors: logged, never shown. */
export class FieldFailure extends Error {
  constructor(cause: unknown) {
    super('Internal Server Error', { cause });
  }
}
