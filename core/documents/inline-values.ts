/**
 * A kept read's SQL with its values written in as literals (read-statements.ts), so that
 * PostgreSQL plans it once for those values and keeps that plan: a statement without parameters
 * always runs its cached plan, where one with parameters is planned again on every run for the
 * values it is given (or runs a generic plan that knows none of them). A literal is exactly what
 * node-postgres would have sent as the parameter (text of unknown type), so PostgreSQL resolves
 * it the same way.
 */
import pg from 'pg';

/** One value as node-postgres sends a parameter's text, or undefined where that is not plain. */
function parameterText(value: unknown): string | null | undefined {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (Array.isArray(value)) {
    // node-postgres' array form: every element quoted, `"` and `\` escaped, null unquoted
    const elements: string[] = [];
    for (const v of value) {
      if (v === null) elements.push('NULL');
      else if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
        elements.push(`"${String(v).replace(/[\\"]/g, '\\$&')}"`);
      else return undefined;
    }
    return `{${elements.join(',')}}`;
  }
  // Dates, Buffers, objects: node-postgres converts them in its own ways; left bound
  return undefined;
}

/**
 * `sql` (knex's form: `?` a value, `\?` a literal question mark) with `bindings` written in, or
 * null when one cannot be: a value that is not plain, or whose text holds a `?` (knex would read
 * it as a placeholder when the statement is run) or a NUL (which ends a statement's text in
 * PostgreSQL's protocol).
 */
export function inlineValues(sql: string, bindings: readonly unknown[]): string | null {
  const literals: string[] = [];
  for (const b of bindings) {
    const text = parameterText(b);
    if (text === undefined) return null;
    if (text === null) {
      literals.push('NULL');
      continue;
    }
    if (text.includes('?') || text.includes('\u0000')) return null;
    // not sql.ts `lit`, which only doubles quotes (for names the compilers write): a caller's value
    // with a backslash must stay one under standard_conforming_strings = off too
    literals.push(pg.escapeLiteral(text));
  }
  let next = 0;
  let unpaired = false;
  // knex's reading of its placeholders: a `?` after an odd number of backslashes is escaped (and
  // one after an even number, which knex would strip of them, is not something a read writes)
  const inlined = sql.replace(/(\\*)\?/g, (match: string, escapes: string) => {
    if (escapes.length % 2 === 1) return match;
    if (escapes.length > 0 || next >= literals.length) {
      unpaired = true;
      return match;
    }
    return literals[next++];
  });
  return unpaired || next !== literals.length ? null : inlined;
}
