/**
 * Checks one scalar input value and turns it into the form Vellum stores in JSONB.
 * Messages follow yup's default wording with the dotted attribute path as the label, as Strapi's
 * validator does, so clients written against Strapi see familiar errors.
 */
import { fieldLabel, type FieldIssue } from '../errors.ts';
import type { ScalarAttribute } from './types.ts';

export type ScalarCheck = { ok: true; value: unknown } | { ok: false; issue: FieldIssue };

/**
 * Which of the attribute's rules apply, as Strapi 5 decides: a `draft` is checked for its type,
 * `max` and `maxLength` only (no `min`, `minLength`, `regex`, email or uid format), a
 * `published` value for everything, an empty email included. Without a mode (filters, auth
 * forms) every rule but the empty email applies.
 */
export type CheckMode = 'draft' | 'published';

/** Reject a value with `message` (prefixed by the label); `hide` keeps the input out of the issue. */
type Fail = (message: string, hide?: boolean) => ScalarCheck;

// Huge values get a clear 400 here instead of a database or out-of-memory error later.
const MAX_STRING_CHARS = 1_000_000;
const MAX_JSON_BYTES = 5 * 1024 * 1024;
// Postgres (and JSON.stringify) recurse per level: bound it well below their stack limits.
const MAX_JSON_DEPTH = 200;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_EMAIL_LENGTH = 254;
// A unique attribute has a B-tree index, whose entries PostgreSQL caps at about 2.7 kB after
// compression, so whether a long value fits would depend on how well it compresses. A fixed
// cap (leaving room for the locale in the same entry) gives every client the same answer.
const MAX_UNIQUE_BYTES = 2048;

const UID_PATTERN = /^[A-Za-z0-9-_.~]*$/;
// The WHATWG (HTML form) email rule, also what yup uses.
const EMAIL_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const EMAIL = new RegExp(`^[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})*$`);
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^-?\d+$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;
const TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** Check and normalise one non-null input value for a scalar attribute. */
export function checkScalar(attr: ScalarAttribute, value: unknown, path: string[], mode?: CheckMode): ScalarCheck {
  const label = path.length > 0 ? fieldLabel(path) : 'this';
  const fail: Fail = (message, hide = false) => {
    const issue: FieldIssue = { path: [...path], message: `${label} ${message}`, name: 'ValidationError' };
    // Never echo a password back, nor a megabyte-sized value.
    if (!hide && attr.type !== 'password') issue.value = value;
    return { ok: false, issue };
  };
  switch (attr.type) {
    case 'blocks':
      return checkBlocks(value, fail);
    case 'json':
      return checkJsonValue(value, fail, 'must be a valid JSON');
    case 'integer':
      return checkInteger(attr, value, fail, mode);
    case 'biginteger':
      return checkBigInteger(attr, value, fail, mode);
    case 'float':
    case 'decimal':
      return checkFloat(attr, value, fail, mode);
    case 'boolean':
      return checkBoolean(value, fail);
    case 'date':
      return checkDate(value, fail);
    case 'time':
      return checkTime(value, fail);
    case 'datetime':
    case 'timestamp':
      return checkDateTime(value, fail);
    default:
      return checkString(attr, value, fail, mode);
  }
}

const MAX_PASSWORD_BYTES = 72;

function checkString(attr: ScalarAttribute, value: unknown, fail: Fail, mode?: CheckMode): ScalarCheck {
  const draft = mode === 'draft';
  if (typeof value !== 'string') return fail('must be a `string` type');
  // `.length` counts UTF-16 units, never fewer than characters: a cheap pre-check.
  if (value.length > MAX_STRING_CHARS && [...value].length > MAX_STRING_CHARS) {
    return fail(`must be at most ${MAX_STRING_CHARS} characters`, true);
  }
  if (value.includes('\u0000')) return fail('must not contain NUL characters');
  const length = [...value].length;
  if (!draft && attr.minLength !== undefined && length < attr.minLength) {
    return fail(`must be at least ${attr.minLength} characters`);
  }
  if (attr.maxLength !== undefined && length > attr.maxLength)
    return fail(`must be at most ${attr.maxLength} characters`);
  // bcrypt reads at most 72 bytes: two longer passwords sharing those would be the same password
  if (attr.type === 'password' && Buffer.byteLength(value) > MAX_PASSWORD_BYTES) {
    return fail(`must be at most ${MAX_PASSWORD_BYTES} bytes (UTF-8)`);
  }
  if (attr.unique && Buffer.byteLength(value) > MAX_UNIQUE_BYTES) {
    return fail(`must be at most ${MAX_UNIQUE_BYTES} bytes (UTF-8) to be unique`, true);
  }
  if (attr.type === 'enumeration' && !(attr.enum ?? []).includes(value)) {
    return fail(`must be one of the following values: ${(attr.enum ?? []).join(', ')}`);
  }
  // Like yup, an empty string is not checked against the email format; a published one is refused (Strapi)
  if (attr.type === 'email' && mode === 'published' && value === '') return fail('cannot be empty');
  if (attr.type === 'email' && !draft && value !== '' && (value.length > MAX_EMAIL_LENGTH || !EMAIL.test(value))) {
    return fail('must be a valid email');
  }
  if (attr.type === 'uid' && !draft && !UID_PATTERN.test(value)) {
    return fail(`must match the following: "${UID_PATTERN}"`);
  }
  // Strapi skips the regex for an empty string unless the attribute is required.
  if (!draft && attr.regex !== undefined && (value !== '' || attr.required)) {
    const regex = new RegExp(attr.regex);
    if (!regex.test(value)) return fail(`must match the following: "${regex}"`);
  }
  return { ok: true, value };
}

function checkInteger(attr: ScalarAttribute, value: unknown, fail: Fail, mode?: CheckMode): ScalarCheck {
  const n = toNumber(value);
  if (n === undefined) return fail('must be a `number` type');
  if (!Number.isInteger(n)) return fail('must be an integer');
  // The int32 range keeps integers compatible with Strapi's SQL `integer` columns.
  if (n < INT32_MIN) return fail(`must be greater than or equal to ${INT32_MIN}`);
  if (n > INT32_MAX) return fail(`must be less than or equal to ${INT32_MAX}`);
  return checkRange(attr, n, fail, mode);
}

function checkFloat(attr: ScalarAttribute, value: unknown, fail: Fail, mode?: CheckMode): ScalarCheck {
  const n = toNumber(value);
  if (n === undefined) return fail('must be a `number` type');
  return checkRange(attr, n, fail, mode);
}

function checkRange(attr: ScalarAttribute, n: number, fail: Fail, mode?: CheckMode): ScalarCheck {
  if (mode !== 'draft' && attr.min !== undefined && n < Number(attr.min)) {
    return fail(`must be greater than or equal to ${attr.min}`);
  }
  if (attr.max !== undefined && n > Number(attr.max)) return fail(`must be less than or equal to ${attr.max}`);
  return { ok: true, value: n };
}

function checkBigInteger(attr: ScalarAttribute, value: unknown, fail: Fail, mode?: CheckMode): ScalarCheck {
  let big: bigint;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return fail('must be a `number` type');
    if (!Number.isInteger(value)) return fail('must be an integer');
    // A double this large has already lost digits: the client must send a string.
    if (!Number.isSafeInteger(value)) return fail(`must be sent as a string when beyond ${Number.MAX_SAFE_INTEGER}`);
    big = BigInt(value);
  } else if (typeof value === 'string' && DIGITS.test(value)) {
    const trimmed = value.replace(/^(-?)0+(?=\d)/, '$1');
    // Anything this long is out of range; skip parsing a huge digit string.
    if (trimmed.length > 20) {
      return fail(
        trimmed.startsWith('-')
          ? `must be greater than or equal to ${INT64_MIN}`
          : `must be less than or equal to ${INT64_MAX}`,
      );
    }
    big = BigInt(trimmed);
  } else if (typeof value === 'string' && NUMERIC.test(value)) {
    return fail('must be an integer');
  } else {
    return fail('must be a `number` type');
  }
  if (big < INT64_MIN) return fail(`must be greater than or equal to ${INT64_MIN}`);
  if (big > INT64_MAX) return fail(`must be less than or equal to ${INT64_MAX}`);
  if (mode !== 'draft' && attr.min !== undefined && compareBig(big, attr.min) < 0) {
    return fail(`must be greater than or equal to ${attr.min}`);
  }
  if (attr.max !== undefined && compareBig(big, attr.max) > 0) return fail(`must be less than or equal to ${attr.max}`);
  // Strapi returns bigintegers as strings: a JSON number could not hold them.
  return { ok: true, value: big.toString() };
}

function checkBoolean(value: unknown, fail: Fail): ScalarCheck {
  if (value === true || value === 'true' || value === '1' || value === 1) return { ok: true, value: true };
  if (value === false || value === 'false' || value === '0' || value === 0) return { ok: true, value: false };
  return fail('must be a `boolean` type');
}

function checkDate(value: unknown, fail: Fail): ScalarCheck {
  if (typeof value === 'string') {
    if (parseDateOnly(value) !== undefined) return { ok: true, value };
    const iso = toIso(parseDateTime(value));
    if (iso !== undefined) return { ok: true, value: iso.slice(0, 10) };
  }
  return fail('must be a valid date');
}

/**
 * Epoch milliseconds written as a string: what Strapi returns for a `timestamp`, so it must
 * be taken back. Shorter digit strings (`2024`, `20240506`) are ISO dates to Strapi, not times.
 */
const EPOCH_MS = /^\d{9,15}$/;

function checkDateTime(value: unknown, fail: Fail): ScalarCheck {
  let ms: number | undefined;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string') {
    ms = EPOCH_MS.test(value) ? Number(value) : (parseDateOnly(value) ?? parseDateTime(value));
  }
  const iso = toIso(ms);
  return iso === undefined ? fail('must be a valid date') : { ok: true, value: iso };
}

/** ISO string of a time, limited to years 0000-9999 so stored strings sort chronologically. */
function toIso(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  // Years outside 0000-9999 print as +YYYYYY / -YYYYYY (27 characters).
  return iso.length === 24 ? iso : undefined;
}

function checkTime(value: unknown, fail: Fail): ScalarCheck {
  const m = typeof value === 'string' ? TIME.exec(value) : null;
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return fail('must be a valid time');
  // Strapi returns what PostgreSQL's `time` prints: seconds always, a fraction without its trailing zeros
  const fraction = (m[4] ?? '').replace(/0+$/, '');
  return { ok: true, value: `${m[1]}:${m[2]}:${m[3] ?? '00'}${fraction === '' ? '' : `.${fraction}`}` };
}

function checkBlocks(value: unknown, fail: Fail): ScalarCheck {
  const invalid = 'must be an array of blocks';
  if (!Array.isArray(value)) return fail(invalid);
  const checked = checkJsonValue(value, fail, invalid);
  if (!checked.ok) return checked;
  // Top-level blocks need a `type`; below them only the `children` shape is enforced.
  if (!value.every((block) => isPlainObject(block) && typeof block.type === 'string')) return fail(invalid);
  const stack: unknown[] = [...value];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (node.children === undefined) continue;
    if (!Array.isArray(node.children) || !node.children.every(isPlainObject)) return fail(invalid);
    for (const child of node.children) stack.push(child);
  }
  return { ok: true, value };
}

/** Any JSON value without NUL characters (Postgres JSONB rejects them), within the size and depth caps. */
function checkJsonValue(value: unknown, fail: Fail, invalid: string): ScalarCheck {
  const problem = findJsonProblem(value);
  // A too-deep value may be a cycle: never echo it (the error body could not be serialised).
  if (problem === 'deep') return fail(`must not be nested more than ${MAX_JSON_DEPTH} levels deep`, true);
  if (problem === 'nul') return fail('must not contain NUL characters');
  if (problem === 'invalid') return fail(invalid);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_JSON_BYTES) {
    return fail(`must be at most ${MAX_JSON_BYTES / 1024 / 1024} MB as JSON`, true);
  }
  return { ok: true, value };
}

// Iterative, so deeply nested input cannot overflow the stack before the depth cap says no.
function findJsonProblem(root: unknown): 'nul' | 'invalid' | 'deep' | undefined {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return 'invalid';
    } else if (typeof v === 'string') {
      if (v.includes('\u0000')) return 'nul';
    } else if (depth >= MAX_JSON_DEPTH) {
      return Array.isArray(v) || isPlainObject(v) ? 'deep' : 'invalid';
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
    } else if (isPlainObject(v)) {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) return 'nul';
        stack.push([item, depth + 1]);
      }
    } else {
      return 'invalid';
    }
  }
  return undefined;
}

/** Numbers, or numeric strings (no coercion of '', whitespace or hex): finite, -0 as 0. */
function toNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return n === 0 ? 0 : n;
}

function compareBig(value: bigint, bound: number | string): number {
  try {
    const b = BigInt(bound);
    return value < b ? -1 : value > b ? 1 : 0;
  } catch {
    return Number(value) - Number(bound); // a fractional bound: schema validation rejects these
  }
}

/** 'YYYY-MM-DD' on a real calendar day, as ms since epoch at midnight UTC. */
function parseDateOnly(value: string): number | undefined {
  const m = DATE_ONLY.exec(value);
  if (!m) return undefined;
  return utc(Number(m[1]), Number(m[2]), Number(m[3]), 0, 0, 0, 0);
}

/** A full ISO 8601 date-time; without an offset it is read as UTC, never server-local time. */
function parseDateTime(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const local = utc(Number(m[1]), Number(m[2]), Number(m[3]), hour, minute, second, ms);
  if (local === undefined) return undefined;
  if (m[9] === undefined) return local;
  const [offsetHours, offsetMinutes] = [Number(m[10]), Number(m[11])];
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
  return m[9] === '+' ? local - offset : local + offset;
}

function utc(
  year: number,
  month: number,
  day: number,
  h: number,
  min: number,
  s: number,
  ms: number,
): number | undefined {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  if (days === undefined || day < 1 || day > days) return undefined;
  // setUTCFullYear, because Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(h, min, s, ms);
  return date.getTime();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
