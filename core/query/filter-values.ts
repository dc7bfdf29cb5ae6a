/**
 * Casting filter values to the type of the field they are compared with, reusing the write
 * path's normalisation (`checkScalar`) so a filter value and a stored value have one form:
 * `'12'` → 12, `'true'` → true, any date-time → its ISO string.
 */
import { checkScalar } from '../content-types/scalars.ts';
import { validationError } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';
import type { ScalarType } from '../content-types/types.ts';
import type { FieldRef, FilterValue } from './types.ts';

/**
 * The type whose check casts a value for `f`. Only the type counts, never the attribute's
 * constraints: `views < 2.5`, a shorter string or a value outside an enumeration are fine to
 * look for. Integers take any number, as Strapi's NumberField does.
 */
function castType(f: FieldRef): ScalarType {
  if (f.kind === 'system') {
    if (f.name === 'id') return 'biginteger';
    return f.name === 'documentId' || f.name === 'locale' ? 'string' : 'datetime';
  }
  switch (f.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return 'float';
    case 'biginteger':
    case 'boolean':
    case 'date':
    case 'time':
    case 'datetime':
    case 'timestamp':
      return f.type;
    case 'json':
    case 'blocks':
      return 'json';
    default:
      return 'string';
  }
}

/** ISO's `yyyy-MM-dd` at the start of a value, which Strapi's date parser looks for first. */
const DATE_PREFIX = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;

/**
 * Strapi 5.54's own answer to a date, time or datetime it cannot read in a filter (its
 * database layer's parse errors): these words, and no details.
 */
function temporalMessage(type: ScalarType, value: unknown): string | undefined {
  if (type === 'date') {
    return typeof value === 'string' && DATE_PREFIX.test(value)
      ? 'Invalid date'
      : 'Invalid format, expected yyyy-MM-dd';
  }
  if (type === 'time') return 'Invalid time format, expected HH:mm:ss.SSS';
  if (type === 'datetime' || type === 'timestamp') return 'Invalid format, expected a timestamp or an ISO date';
  return undefined;
}

/**
 * A filter value error. Dates and times are refused in Strapi's words; for the other types,
 * where Strapi 5.54 answers a 500 (numbers) or lets the value through (booleans), the details
 * name the attribute filtered on and where the value sits, with `value: null` as Strapi's
 * validator reports a value it could not cast.
 */
function fail(message: string, field: FieldRef, path: string[], type: ScalarType, value: unknown): never {
  const temporal = temporalMessage(type, value);
  if (temporal) throw validationError(temporal);
  const details = { key: field.name, path: path.join('.'), source: 'query', param: 'filters', value: null };
  throw validationError(message, details);
}

/**
 * A query string carries JSON as text: `filters[meta][$eq]={"a":1}`. Text that is not JSON
 * is the JSON string itself, so `filters[meta][$eq]=draft` needs no quotes.
 */
function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** `value` cast to `field`'s type, or a 400 naming the key (`path` is where it was found). */
export function castValue(field: FieldRef, value: unknown, path: string[]): FilterValue {
  const type = castType(field);
  const input = type === 'json' ? parseJson(value) : value;
  if (type !== 'json' && typeof input === 'object' && input !== null) {
    fail(`${path.join('.')} must be a single value`, field, path, 'json', input);
  }
  const checked = checkScalar({ type }, input, path);
  if (!checked.ok) fail(checked.issue.message, field, path, type, input);
  return checked.value as FilterValue;
}

/** A value matched as text (`$contains`, `$eqi`, …): a string, or a number or boolean as written. */
export function castText(field: FieldRef, value: unknown, path: string[]): string {
  const input = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  const checked = checkScalar({ type: 'string' }, input, path);
  if (!checked.ok) fail(checked.issue.message, field, path, 'string', input);
  return checked.value as string;
}

/** `$null` / `$notNull`: true or false, as booleans or their query-string spellings. */
export function castFlag(field: FieldRef, value: unknown, path: string[]): boolean {
  const checked = checkScalar({ type: 'boolean' }, value, path);
  if (!checked.ok) fail(checked.issue.message, field, path, 'boolean', value);
  return checked.value as boolean;
}

/**
 * An array, or what qs makes of one past its `arrayLimit`: an object whose keys are all
 * indexes (`$or[150][...]`). Anything else is undefined.
 */
export function asArray(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => /^(0|[1-9]\d{0,8})$/.test(k))) return undefined;
  return keys
    .map(Number)
    .sort((a, b) => a - b)
    .map((i) => value[String(i)]);
}
