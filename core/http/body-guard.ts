import { invalidKey, isAppError, validationError, type AppError } from '../errors.ts';

export const MAX_BODY_DEPTH = 64;

/** A value still to check, linked to its parent so an error can name where it is. */
interface Entry {
  value: unknown;
  depth: number;
  key: string;
  parent: Entry | null;
}

/** Dotted path of an entry from the body's root (`data.seo.__proto__`). */
function pathOf(entry: Entry): string {
  const keys: string[] = [];
  for (let e: Entry | null = entry; e?.parent; e = e.parent) keys.push(e.key);
  return keys.reverse().join('.');
}

/**
 * Reject bodies no attribute could ever hold before anything walks them recursively:
 * nesting deeper than MAX_BODY_DEPTH (a stack-overflow risk), NUL characters in keys or
 * strings (PostgreSQL's jsonb cannot store them), and `__proto__` keys (copying one into
 * an object with `obj[key] = value` replaces that object's prototype). Iterative, so
 * hostile input cannot overflow the stack here either.
 */
export function guardBody(body: unknown): void {
  const stack: Entry[] = [{ value: body, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw validationError('Strings must not contain NUL characters');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) throw validationError(`The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push({ value: item, depth: depth + 1, key: String(i), parent: entry }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw validationError('Keys must not contain NUL characters');
      const child: Entry = { value: item, depth: depth + 1, key, parent: entry };
      if (key === '__proto__') throw invalidKey(key, pathOf(child), 'body');
      stack.push(child);
    }
  }
}

/**
 * The body parser refuses JSON with a `__proto__` key without saying where it is. Parse
 * the text again (native JSON.parse keeps such keys as plain own properties) so the client
 * gets the same "Invalid key" error, with its path, as for any other unknown key.
 */
export function explainForbiddenKey(text: string): AppError {
  try {
    guardBody(JSON.parse(text));
  } catch (err) {
    if (isAppError(err)) return err;
  }
  return invalidKey('__proto__', '__proto__', 'body');
}
