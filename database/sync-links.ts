/**
 * A document table's link table (core/query/links-sql.ts), in the sync's transaction. As for the
 * value counts, the trigger function's body is the definition of what is kept: when the schema
 * changes the owning relations (one added, removed, made to-many), or the triggers are missing,
 * the function is replaced and every link recomputed from the rows under a lock that holds off
 * writers; otherwise nothing is done. A type without owning relations has no link table.
 */
import type { Knex } from 'knex';
import type { ContentType } from '../core/content-types/types.ts';
import {
  linkedAttributes,
  linksDdl,
  linksFunction,
  linksFunctionName,
  linksTable,
  linksTriggers,
  relink,
} from '../core/query/links-sql.ts';
import { fragment } from '../core/query/sql.ts';
import { DOCUMENT_AUTOVACUUM } from '../core/query/table-sql.ts';
import { functionBody, hasTriggers, startCounting } from './sync-counts.ts';

export async function syncLinks(db: Knex, ct: ContentType): Promise<void> {
  const table = ct.collectionName;
  const attrs = linkedAttributes(ct);
  const triggers = linksTriggers(table);
  if (attrs.length === 0) {
    for (const { name } of triggers) await db.raw('DROP TRIGGER IF EXISTS ?? ON ??', [name, table]);
    await db.raw('DROP FUNCTION IF EXISTS ??()', [linksFunctionName(table)]);
    await db.raw('DROP TABLE IF EXISTS ??', [linksTable(table)]);
    return;
  }
  for (const ddl of linksDdl(table)) await db.raw(ddl);
  // seeded in bursts like the documents: the visibility map its index-only lookups need, soon
  await db.raw(`ALTER TABLE ?? SET (${DOCUMENT_AUTOVACUUM})`, [linksTable(table)]);
  const { body, create } = linksFunction(table, attrs);
  if ((await functionBody(db, linksFunctionName(table))) === body && (await hasTriggers(db, table, triggers))) return;
  await db.raw(create);
  await db.raw('LOCK TABLE ?? IN SHARE ROW EXCLUSIVE MODE', [table]);
  await db.raw('DELETE FROM ??', [linksTable(table)]);
  await startCounting(db, table, fragment(relink(table, attrs)), triggers);
}
