import { invalidKey, isAppError, validationError, type AppError } from '../errors.ts';

export const MAX_BODY_DEPTH = 64;

// Half of a UTF-16 surrogate pair: JSON can escape one ("\ud800"), PostgreSQL cannot store it.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why PostgreSQL would refuse this text, if it would. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode (no lone surrogates)';
  return null;
}

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
 * nesting deeper than MAX_BODY_DEPTH (a stack-overflow risk), keys or strings PostgreSQL
 * cannot store (NUL characters, lone surrogates: a clear 400 here rather than a vague one
 * when the database refuses the write), and `__proto__` keys (copying one into an object
 * with `obj[key] = value` replaces that object's prototype). Iterative, so hostile input
 * cannot overflow the stack here either.
 */
export function guardBody(body: unknown): void {
  const stack: Entry[] = [{ value: body, depth: 0, key: '', parent: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { value, depth } = entry;
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) throw validationError(`Strings ${problem}`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH)
      throw validationError(`The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push({ value: item, depth: depth + 1, key: String(i), parent: entry });
      });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const problem = unstorable(key);
      if (problem) throw validationError(`Keys ${problem}`);
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
