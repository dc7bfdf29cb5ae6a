import { validationError } from '../errors.ts';

export const MAX_BODY_DEPTH = 64;

/**
 * Reject bodies no attribute could ever hold before anything walks them recursively:
 * nesting deeper than MAX_BODY_DEPTH (a stack-overflow risk) and NUL characters in keys or
 * strings (PostgreSQL's jsonb cannot store them). Iterative, so hostile input cannot
 * overflow the stack here either.
 */
export function guardBody(body: unknown): void {
  const stack: Array<[unknown, number]> = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw validationError('Strings must not contain NUL characters');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) throw validationError(`The request body is nested more than ${MAX_BODY_DEPTH} levels deep`);
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw validationError('Keys must not contain NUL characters');
      stack.push([item, depth + 1]);
    }
  }
}
