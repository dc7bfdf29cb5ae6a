/**
 * `_q`, Strapi's full-text search of a REST list: a case-insensitive substring of the row's
 * `id` (as text), `documentId`, `locale` and every string attribute (string, text, richtext,
 * email, uid, enumeration), and of its numbers too when the query reads as a number. In the
 * pattern `%`, `*` and `\` are literal and `_` still matches any one character, as in Strapi.
 *
 * One GIN trigram index per table serves it (`database/sync.ts`): it holds the concatenation
 * of every column `_q` may read, so the condition is that text ILIKE the pattern (which the
 * index answers) AND the pattern found in one of the columns (which drops a match spanning two
 * of them). Without pg_trgm the same condition is a scan.
 *
 * Attribute names are spliced into the SQL as literals: they must be, for the condition to be
 * the indexed expression, and they are identifiers the schema validator accepted.
 */
import { isLocalized, isScalar, type Attribute, type ContentType } from '../content-types/types.ts';
import { validationError } from '../errors.ts';
import { COLUMNS, qualified, quote, type SqlFragment } from './sql.ts';

const STRING_TYPES: ReadonlySet<string> = new Set(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES: ReadonlySet<string> = new Set(['integer', 'biginteger', 'float', 'decimal']);

/** Longest `_q` taken: a search is one pattern, not a document. */
export const MAX_SEARCH_LENGTH = 1000;

/**
 * Private and password attributes are never searched: a match would tell a client, one guess at
 * a time, what they hold (Strapi 5 searches private ones). `searchable: false` opts one out.
 */
const searchable = (attr: Attribute): boolean =>
  isScalar(attr) && attr.type !== 'password' && attr.private !== true && attr.searchable !== false;

/** The attributes `_q` reads in `ct`: strings always, numbers for a numeric query. */
export function searchedAttributes(ct: ContentType): { strings: string[]; numbers: string[] } {
  const strings: string[] = [];
  const numbers: string[] = [];
  for (const [name, attr] of Object.entries(ct.attributes)) {
    if (!searchable(attr)) continue;
    if (STRING_TYPES.has(attr.type)) strings.push(name);
    else if (NUMBER_TYPES.has(attr.type)) numbers.push(name);
  }
  return { strings, numbers };
}

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** Each column `_q` may read, as text (NULL when absent), for the row under `alias` (unqualified without). */
function columns(ct: ContentType, alias: string | undefined, numeric: boolean): string[] {
  const c = (name: string): string => (alias ? qualified(alias, name) : quote(name));
  const { strings, numbers } = searchedAttributes(ct);
  const out = [`${c(COLUMNS.id)}::text`, c(COLUMNS.documentId)];
  if (isLocalized(ct)) out.push(c(COLUMNS.locale));
  for (const name of numeric ? [...strings, ...numbers] : strings) out.push(`(${c(COLUMNS.data)}->>${lit(name)})`);
  return out;
}

/**
 * The text the search index holds: every column `_q` may read, numbers included, joined by
 * spaces. Built only of immutable operators (`||`, `->>`, `::text`, coalesce), as an index
 * expression must be; the read repeats it exactly, with the read's alias, to use the index.
 */
export function searchText(ct: ContentType, alias?: string): string {
  return `(${columns(ct, alias, true)
    .map((col) => `coalesce(${col}, '')`)
    .join(` || ' ' || `)})`;
}

/** Strapi's test for "the query is a number" (lodash's `toNumber` is not NaN): `12`, ` 1.5 `, `0x1f`, `1e3`. */
export const isNumericQuery = (q: string): boolean => !Number.isNaN(Number(q));

/** `%q%` with `%`, `*` and `\` taken literally (Strapi escapes exactly these three). */
export const searchPattern = (q: string): string => `%${q.replace(/[*%\\]/g, (c) => `\\${c}`)}%`;

/** The `_q` condition on the row under `alias`. */
export function searchCondition(ct: ContentType, alias: string, q: string): SqlFragment {
  const pattern = searchPattern(q);
  const exact = columns(ct, alias, isNumericQuery(q)).map((col) => `${col} ILIKE ?`);
  return {
    sql: `(${searchText(ct, alias)} ILIKE ? AND (${exact.join(' OR ')}))`,
    bindings: [pattern, ...exact.map(() => pattern)],
  };
}

/** The `_q` parameter: a string (empty means no search), or a 400 as a client can read it. */
export function parseSearch(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const invalid = (why: string): Error =>
    validationError(`Invalid _q parameter: ${why}`, { key: '_q', path: null, source: 'query', param: '_q' });
  if (typeof raw !== 'string') throw invalid('expected a string');
  if (raw.length > MAX_SEARCH_LENGTH) throw invalid(`longer than ${MAX_SEARCH_LENGTH} characters`);
  if (raw.includes('\u0000')) throw invalid('it contains a NUL character');
  return raw;
}
