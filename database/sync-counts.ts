/**
 * The counts of a document table, kept by statement triggers: its row counts (core/query/table-sql.ts
 * `ROW_COUNTS`) and its value counts (core/query/value-counts-sql.ts). Runs in the sync's
 * transaction (database/sync.ts); the value counts after the table's value columns exist.
 */
import type { Knex } from 'knex';
import type { ContentType } from '../core/content-types/types.ts';
import type { SqlFragment } from '../core/query/sql.ts';
import { countTriggers, recount } from '../core/query/table-sql.ts';
import {
  countFunction,
  countFunctionName,
  forgetValues,
  recountValues,
  summarizedAttributes,
  valueCountTriggers,
} from '../core/query/value-counts-sql.ts';

type Trigger = { name: string; create: string };

/** Whether `table` has every one of `triggers` (one dropped alone must be noticed too). */
export async function hasTriggers(db: Knex, table: string, triggers: Trigger[]): Promise<boolean> {
  const { rows } = await db.raw(
    'SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = quote_ident(?)::regclass AND tgname = ANY (?)',
    [table, triggers.map((t) => t.name)],
  );
  return rows[0].n === triggers.length;
}

/**
 * Counts (or links: database/sync-links.ts) recomputed and their triggers (re)created, under a
 * lock that holds off writers between the count's snapshot and the triggers.
 */
export async function startCounting(db: Knex, table: string, counts: SqlFragment, triggers: Trigger[]): Promise<void> {
  await db.raw('LOCK TABLE ?? IN SHARE ROW EXCLUSIVE MODE', [table]);
  await db.raw(counts.sql, counts.bindings);
  for (const { name, create } of triggers) {
    // one left from a partial removal would make its CREATE fail
    await db.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
    await db.raw(create);
  }
}

/** A table's row counts: started once (their trigger function is shared and replaced by the sync). */
export async function syncRowCounts(db: Knex, table: string): Promise<void> {
  const triggers = countTriggers(table);
  if (await hasTriggers(db, table, triggers)) return;
  await startCounting(db, table, recount(table), triggers);
}

/** The body of function `name` as PostgreSQL holds it (undefined: no such function). */
export async function functionBody(db: Knex, name: string): Promise<string | undefined> {
  const { rows } = await db.raw('SELECT prosrc FROM pg_proc WHERE proname = ?', [name]);
  return (rows as Array<{ prosrc: string }>)[0]?.prosrc;
}

/**
 * Counts `ct`'s summarized attributes. Its function's body says what it counts: when the schema
 * changes what that is (an attribute added, removed, retyped), or the triggers are missing, the
 * function is replaced and every count recomputed from the rows; otherwise nothing is done. A type
 * with nothing to count loses its triggers and counts.
 */
export async function syncValueCounts(db: Knex, ct: ContentType): Promise<void> {
  const table = ct.collectionName;
  const attrs = summarizedAttributes(ct);
  const name = countFunctionName(table);
  const triggers = valueCountTriggers(table);
  if (attrs.length === 0) {
    for (const { name: trigger } of triggers) await db.raw('DROP TRIGGER IF EXISTS ?? ON ??', [trigger, table]);
    await db.raw(`DROP FUNCTION IF EXISTS ??()`, [name]);
    const forget = forgetValues(table);
    await db.raw(forget.sql, forget.bindings);
    return;
  }
  const { body, create } = countFunction(table, attrs);
  if ((await functionBody(db, name)) === body && (await hasTriggers(db, table, triggers))) return;
  await db.raw(create);
  await startCounting(db, table, recountValues(table, attrs), triggers);
}
