/**
 * The value counts of a document table (core/query/value-counts-sql.ts): its trigger function and
 * triggers, and its counts recomputed whenever what they count changes. Runs in the sync's
 * transaction (database/sync.ts), after the table's value columns exist.
 */
import type { Knex } from 'knex';
import type { ContentType } from '../core/content-types/types.ts';
import {
  countFunction,
  countFunctionName,
  forgetValues,
  recountValues,
  summarizedAttributes,
  valueCountTriggers,
} from '../core/query/value-counts-sql.ts';

/** Whether `table` has `trigger`. */
async function hasTrigger(db: Knex, table: string, trigger: string): Promise<boolean> {
  const { rows } = await db.raw('SELECT 1 FROM pg_trigger WHERE tgrelid = quote_ident(?)::regclass AND tgname = ?', [
    table,
    trigger,
  ]);
  return rows.length > 0;
}

/** The body of function `name` as PostgreSQL holds it (undefined: no such function). */
async function functionBody(db: Knex, name: string): Promise<string | undefined> {
  const { rows } = await db.raw('SELECT prosrc FROM pg_proc WHERE proname = ?', [name]);
  return (rows as Array<{ prosrc: string }>)[0]?.prosrc;
}

/**
 * Counts `ct`'s summarized attributes. Its function's body says what it counts: when the schema
 * changes what that is (an attribute added, removed, retyped), or the triggers are missing, the
 * table is locked against writes, the function replaced and every count recomputed from the rows;
 * otherwise nothing is done. A type with nothing to count loses its triggers and counts.
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
  const create = countFunction(table, attrs);
  const body = create.slice(create.indexOf('$fn$') + 4, create.lastIndexOf('$fn$'));
  if ((await functionBody(db, name)) === body && (await hasTrigger(db, table, triggers[0].name))) return;
  // no write may run between the recount's snapshot and the new triggers
  await db.raw('LOCK TABLE ?? IN SHARE ROW EXCLUSIVE MODE', [table]);
  await db.raw(create);
  const counts = recountValues(table, attrs);
  await db.raw(counts.sql, counts.bindings);
  for (const { name: trigger, create: createTrigger } of triggers) {
    await db.raw('DROP TRIGGER IF EXISTS ?? ON ??', [trigger, table]);
    await db.raw(createTrigger);
  }
}
