import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ContentType } from '../core/content-types/types.ts';
import { configurationError } from '../core/errors.ts';
import { searchText } from '../core/query/search.ts';
import { lit, quote } from '../core/query/sql.ts';
import { GENERATIONS_DDL } from '../core/cache/database.ts';
import {
  PARTS,
  partsExpression,
  RENDER_VERSION,
  RENDERED,
  renderExpression,
  versionOf,
} from '../core/query/render-sql.ts';
import type { Registry } from '../core/content-types/registry.ts';
import {
  CREATE_RANK_SEQUENCE,
  createTable,
  ROW_COUNTS_DDL,
  ROW_COUNTS_FUNCTION,
  DATA_GIN,
  DOCUMENT_AUTOVACUUM,
  readIndexes,
  valueColumns,
  SCOPE_COLUMNS,
  SINGLE_TYPE_KEY,
  uniqueIndex,
  VERSION_KEY,
} from '../core/query/table-sql.ts';
import { VALUE_COUNTS_DDL } from '../core/query/value-counts-sql.ts';
import { syncRowCounts, syncValueCounts } from './sync-counts.ts';
import { syncLinks } from './sync-links.ts';

/** Held by the sync's transaction (it runs in one: the lock goes with it). */
const SYNC_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('vellum:sync', 0))";

/** The sequence every component instance takes its `id` from. */
export const COMPONENT_ID_SEQUENCE = 'vellum_component_ids';

const short = (s: string): string => createHash('sha1').update(s).digest('hex').slice(0, 8);

/**
 * Name of the unique expression index of `attribute` on `table` (kept under 63 bytes). The hash
 * names the index's definition too, so an index of an earlier definition is dropped and rebuilt.
 */
export function uniqueIndexName(table: string, attribute: string): string {
  return `${table.slice(0, 30)}_${attribute.slice(0, 16)}_${short(`${table}.${attribute}:published`)}_uq`.toLowerCase();
}

const UNIQUE_SUFFIX = '_uq';

/** Name of the index that keeps a single type to one document per locale (and version). */
export const singleTypeIndexName = (table: string): string => `${table.slice(0, 50)}_single_key`;

/**
 * A single type has one document: per locale, one draft row and one published row at most,
 * enforced by the database so no race of first writes can make a second. A type that stops
 * being single loses the index.
 */
async function syncSingleTypeIndex(db: Knex, ct: ContentType): Promise<void> {
  const t = ct.collectionName;
  const index = singleTypeIndexName(t);
  if (ct.kind !== 'singleType') {
    await db.raw(`DROP INDEX IF EXISTS ??`, [index]);
    return;
  }
  try {
    await db.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ?? ON ?? ${SINGLE_TYPE_KEY}`, [index, t]);
  } catch (err) {
    if ((err as { code?: string }).code !== '23505') throw err;
    // a database written before the index existed may hold the documents of a lost race: which
    // one to keep is the owner's decision, not something to guess at start-up
    throw configurationError(
      `The single type ${ct.uid} has more than one document in table "${t}" (a race of first writes in an earlier ` +
        'version): delete the rows of all but one document, then start again.',
    );
  }
}

const SEARCH_SUFFIX = '_search';

/** The names of `table`'s indexes that end with `suffix` (`_` in it taken literally). */
async function indexesEndingWith(db: Knex, table: string, suffix: string): Promise<string[]> {
  const { rows } = await db.raw(
    `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexname LIKE ?`,
    [table, `%${suffix.replace(/_/g, '\\_')}`],
  );
  return (rows as Array<{ indexname: string }>).map((r) => r.indexname);
}

/**
 * pg_trgm, whose GIN operator class lets an index answer `ILIKE '%…%'` (`_q`). PostgreSQL 13+
 * lets a database owner create it (it is a trusted extension); where that fails (an older
 * server without the contrib package, a user without CREATE) the search works without an
 * index. Tried in a savepoint, since the sync is one transaction.
 */
async function ensureTrigram(db: Knex): Promise<boolean> {
  const present = async (): Promise<boolean> =>
    (await db.raw(`SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'`)).rows.length > 0;
  if (await present()) return true;
  try {
    await db.transaction((sp) => sp.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm'));
    return true;
  } catch {
    // another app may have created it at the same moment
    return present();
  }
}

/**
 * The trigram index of `_q` on one table: over the concatenated text of every column a search
 * reads (`searchText`), named by a hash of that expression so a schema change (an attribute
 * added, made private, …) builds the new one and drops the old.
 */
async function syncSearchIndex(db: Knex, ct: ContentType, trigram: boolean): Promise<void> {
  const t = ct.collectionName;
  const expression = searchText(ct);
  const index = trigram ? `${t.slice(0, 40)}_${short(expression)}${SEARCH_SUFFIX}` : undefined;
  for (const indexname of await indexesEndingWith(db, t, SEARCH_SUFFIX)) {
    if (indexname !== index) await db.raw(`DROP INDEX IF EXISTS ??`, [indexname]);
  }
  // DDL takes no bind parameters: the expression holds only our column names and schema-checked attribute names
  if (index) await db.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? USING gin (${expression} gin_trgm_ops)`, [index, t]);
}

const READ_SUFFIX = '_rx';

/**
 * The generated columns of one table's read-indexed attributes (table-sql.ts `valueColumn`),
 * each one's definition kept as its comment: a column of a definition no longer made (an
 * attribute removed, retyped, made private) is dropped (no rewrite), the missing ones added in
 * one ALTER TABLE, which rewrites the table once (writes and reads wait for it).
 */
async function syncValueColumns(db: Knex, ct: ContentType): Promise<void> {
  const t = ct.collectionName;
  const wanted = new Map(valueColumns(ct).map((col) => [col.name, col.definition]));
  const { rows } = await db.raw(
    `SELECT attname, col_description(attrelid, attnum) AS definition FROM pg_attribute
     WHERE attrelid = quote_ident(?)::regclass AND attnum > 0 AND NOT attisdropped AND attname LIKE 'v$%'`,
    [t],
  );
  for (const { attname, definition } of rows as Array<{ attname: string; definition: string | null }>) {
    if (wanted.get(attname) === definition) wanted.delete(attname);
    else await db.raw('ALTER TABLE ?? DROP COLUMN IF EXISTS ??', [t, attname]);
  }
  if (wanted.size === 0) return;
  // IF NOT EXISTS: another app starting on the database may have added them while this one waited
  // for the lock. DDL takes no bind parameters: definitions hold our column names and attribute names
  const adds = [...wanted].map(([name, definition]) => `ADD COLUMN IF NOT EXISTS ${quote(name)} ${definition}`);
  await db.raw(`ALTER TABLE ?? ${adds.join(', ')}`, [t]);
  for (const [name, definition] of wanted) await db.raw(`COMMENT ON COLUMN ??.?? IS ${lit(definition)}`, [t, name]);
}

/**
 * The kept render of each row (core/query/render-sql.ts): a text column, and a BEFORE trigger
 * that computes it from the row on every insert and update, whatever writes it (the document
 * service, a migration's SQL); with the row's components and dynamic zones, their kept renders
 * too (`PARTS`), and which render they are (`RENDER_VERSION`). Each expression is kept as its
 * column's comment: when the schema changes one (an attribute added, removed, made private), the
 * function is replaced, and the rows of an older render are rendered again: here, by one UPDATE,
 * when there are at most `inlineRows` of them; else the table is returned, for the app to render
 * them in the background (database/rerender.ts) while reads build their JSON. Rendering 200k
 * rows at start took over a minute, during which the app did not serve.
 */
async function syncRender(
  db: Knex,
  ct: ContentType,
  registry: Registry,
  inlineRows: number,
): Promise<StaleRender | null> {
  const t = ct.collectionName;
  const expression = renderExpression(ct);
  const parts = partsExpression(registry, ct);
  const version = versionOf(expression, parts);
  const { rows } = await db.raw(
    `SELECT attname, col_description(attrelid, attnum) AS definition,
       EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = attrelid AND tgname = ?) AS triggered
     FROM pg_attribute WHERE attrelid = quote_ident(?)::regclass AND attname IN (?, ?, ?) AND NOT attisdropped`,
    [RENDER_TRIGGER, t, RENDERED, PARTS, RENDER_VERSION],
  );
  const kept = new Map(
    (rows as Array<{ attname: string; definition: string | null; triggered: boolean }>).map((r) => [r.attname, r]),
  );
  const current =
    kept.get(RENDERED)?.definition === expression &&
    kept.get(RENDERED)?.triggered === true &&
    kept.get(RENDER_VERSION)?.definition === String(version) &&
    // a type without parts keeps no column for them (nor a trigger still computing them)
    (parts === null ? !kept.has(PARTS) : kept.get(PARTS)?.definition === parts);
  if (current) return null;
  const fn = quote(`vellum_render_${short(t)}`);
  // new columns without a default: no rewrite of the table
  await db.raw(`ALTER TABLE ${quote(t)} ADD COLUMN IF NOT EXISTS ${quote(RENDERED)} text`);
  await db.raw(`ALTER TABLE ${quote(t)} ADD COLUMN IF NOT EXISTS ${quote(RENDER_VERSION)} integer`);
  if (parts !== null) await db.raw(`ALTER TABLE ${quote(t)} ADD COLUMN IF NOT EXISTS ${quote(PARTS)} text[]`);
  // a type that no longer has parts: none kept, so none can be stale
  else await db.raw(`ALTER TABLE ${quote(t)} DROP COLUMN IF EXISTS ${quote(PARTS)}`);
  const keepParts = parts === null ? '' : ` NEW.${quote(PARTS)} := ${parts};`;
  // DDL takes no bind parameters: the expression holds our column names and schema-checked attribute names
  await db.raw(
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $render$ ` +
      `BEGIN NEW.${quote(RENDERED)} := ${expression};${keepParts} NEW.${quote(RENDER_VERSION)} := ${version}; ` +
      `RETURN NEW; END $render$`,
  );
  await db.raw(`DROP TRIGGER IF EXISTS ${RENDER_TRIGGER} ON ${quote(t)}`);
  await db.raw(
    `CREATE TRIGGER ${RENDER_TRIGGER} BEFORE INSERT OR UPDATE ON ${quote(t)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
  );
  await db.raw(`COMMENT ON COLUMN ${quote(t)}.${quote(RENDERED)} IS ${lit(expression)}`);
  await db.raw(`COMMENT ON COLUMN ${quote(t)}.${quote(RENDER_VERSION)} IS ${lit(String(version))}`);
  if (parts !== null) await db.raw(`COMMENT ON COLUMN ${quote(t)}.${quote(PARTS)} IS ${lit(parts)}`);
  const stale = await db.raw(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${quote(t)} WHERE ${staleRender(version)} LIMIT ?) s`,
    [inlineRows + 1],
  );
  if (stale.rows[0].n > inlineRows) return { table: t, version };
  // every stored row of an older render rendered by the trigger, as a write would
  await db.raw(`UPDATE ${quote(t)} SET ${quote(RENDERED)} = NULL WHERE ${staleRender(version)}`);
  return null;
}

/** A row whose kept render is not of `version` (an integer: spliced). */
export const staleRender = (version: number): string => `${quote(RENDER_VERSION)} IS DISTINCT FROM ${version | 0}`;

/** Rows of older renders a start renders itself; more are rendered in the background. */
export const INLINE_RENDER_ROWS = 10_000;

const RENDER_TRIGGER = 'vellum_render';

/** Name of a read index (see `readIndexes`): its key, and a hash of its definition (under 63 bytes). */
export const readIndexName = (table: string, key: string, definition: string): string =>
  `${table.slice(0, 30)}_${key.slice(0, 16)}_${short(`${table}:${definition}`)}${READ_SUFFIX}`.toLowerCase();

/**
 * The read indexes of one table, as the schema makes them now: those of a definition no
 * longer made (an attribute removed, retyped, made private, a type no longer localized) are
 * dropped, new ones built; the unchanged ones are left as they are. An index that fails to build
 * on stored data is not built: reads work without it, and the start does not fail (the value
 * columns it is built on compute every stored value, so none does today). Answers the attributes
 * left without one.
 */
async function syncReadIndexes(db: Knex, ct: ContentType): Promise<string[]> {
  const t = ct.collectionName;
  const indexes = readIndexes(ct).map((i) => ({ ...i, name: readIndexName(t, i.key, i.definition) }));
  const wanted = new Set(indexes.map((i) => i.name));
  for (const indexname of await indexesEndingWith(db, t, READ_SUFFIX)) {
    if (!wanted.has(indexname)) await db.raw(`DROP INDEX IF EXISTS ??`, [indexname]);
  }
  const failed = new Set<string>();
  for (const { key, name, definition } of indexes) {
    try {
      // in a savepoint: the sync is one transaction. DDL takes no bind parameters: the definition
      // holds our column names and schema-checked attribute names
      await db.transaction((sp) => sp.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${definition}`, [name, t]));
    } catch (err) {
      // class 22: a stored value the definition cannot compute
      if (!String((err as { code?: string }).code).startsWith('22')) throw err;
      failed.add(key);
    }
  }
  return [...failed];
}

/** What the sync could set up. */
export interface SyncReport {
  /** false: pg_trgm could not be created, `_q` reads without an index */
  searchIndexes: boolean;
  /** `uid.attribute` of the attributes left without read indexes: a stored value their expression cannot cast */
  unindexed: string[];
  /** tables whose rows of an older render are left to render again in the background (`syncRender`) */
  staleRenders: StaleRender[];
}

/** A table with rows of an older render than `version`, the one its trigger now computes. */
export interface StaleRender {
  table: string;
  version: number;
}

/**
 * Rows up to a full 8 kB page stay inline and uncompressed. With PostgreSQL's default (2 kB) a
 * typical article's `data` is pglz-compressed and moved to the TOAST table, and every
 * `data->'key'` in a filter, sort or populate fetches and decompresses it again: measured on
 * the bench's 2000 articles, a filter on one attribute scans in 1.0 ms instead of 5.9 ms. The
 * price is a larger heap; documents over 8 kB are still compressed and toasted.
 */
const TOAST_TUPLE_TARGET = 8160;

/**
 * Create (idempotently) the table and indexes of every content-type. Every table has the
 * same columns; attributes live in `data`. Unique attributes get unique expression indexes over
 * the published rows of each locale, so the database, not a read-then-write check, decides a race
 * between two writers. Drafts are left out, as Strapi 5 checks uniqueness only when publishing:
 * two drafts may hold one value, and a published document one that only drafts hold.
 */
export async function syncTables(
  db: Knex,
  contentTypes: ContentType[],
  registry: Registry,
  options: { inlineRenderRows?: number } = {},
): Promise<SyncReport> {
  // two apps starting on one database sync one after the other: concurrent `CREATE … IF NOT
  // EXISTS` (or OR REPLACE) of one object can fail, and each step below may assume it runs alone
  await db.raw(SYNC_LOCK);
  await db.raw(`CREATE SEQUENCE IF NOT EXISTS ${COMPONENT_ID_SEQUENCE}`);
  await db.raw(CREATE_RANK_SEQUENCE);
  await db.raw(GENERATIONS_DDL);
  const trigram = await ensureTrigram(db);
  const unindexed: string[] = [];
  const staleRenders: StaleRender[] = [];
  for (const ddl of ROW_COUNTS_DDL) await db.raw(ddl);
  await db.raw(ROW_COUNTS_FUNCTION);
  for (const ddl of VALUE_COUNTS_DDL) await db.raw(ddl);
  for (const ct of contentTypes) {
    const t = ct.collectionName;
    await db.raw(createTable(t));
    // new tables and those created before this setting existed alike (it applies to rows written later)
    await db.raw(`ALTER TABLE ?? SET (toast_tuple_target = ${TOAST_TUPLE_TARGET}, ${DOCUMENT_AUTOVACUUM})`, [t]);
    await db.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ?? ON ?? ${VERSION_KEY}`, [`${t.slice(0, 50)}_version_key`, t]);
    await db.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${DATA_GIN}`, [`${t.slice(0, 54)}_data_gin`, t]);
    // every read is scoped by locale and status: counts become index-only scans
    await db.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? ${SCOPE_COLUMNS}`, [`${t.slice(0, 54)}_scope`, t]);
    await syncSingleTypeIndex(db, ct);
    await syncSearchIndex(db, ct, trigram);
    await syncRowCounts(db, t);
    await syncValueColumns(db, ct);
    await syncValueCounts(db, ct);
    await syncLinks(db, ct);
    const stale = await syncRender(db, ct, registry, options.inlineRenderRows ?? INLINE_RENDER_ROWS);
    if (stale) staleRenders.push(stale);
    unindexed.push(...(await syncReadIndexes(db, ct)).map((a) => `${ct.uid}.${a}`));

    const wanted = new Map<string, string>();
    for (const [name, attr] of Object.entries(ct.attributes)) {
      if ('unique' in attr && attr.unique) wanted.set(uniqueIndexName(t, name), name);
    }
    for (const indexname of await indexesEndingWith(db, t, UNIQUE_SUFFIX)) {
      // a `unique` removed from the schema must stop being enforced
      if (!wanted.has(indexname)) await db.raw(`DROP INDEX IF EXISTS ??`, [indexname]);
    }
    for (const [index, attribute] of wanted) {
      await db.raw(`CREATE UNIQUE INDEX IF NOT EXISTS ?? ON ?? ${uniqueIndex(attribute)}`, [index, t]);
    }
  }
  return { searchIndexes: trigram, unindexed, staleRenders };
}
