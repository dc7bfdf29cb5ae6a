import type { Knex } from 'knex';
import type { Registry } from '../content-types/registry.ts';
import { FILE_UID, isToMany } from '../content-types/types.ts';
import {
  filesWithout,
  holds,
  holdsFile,
  JSON_NULL,
  listWithout,
  setAttribute,
  withoutRank,
} from '../query/jsonb-writes.ts';
import { COLUMNS, type SqlFragment } from '../query/sql.ts';
import type { Row } from './rows.ts';

/**
 * Remove a deleted document from the owning relations that point at it (and the ranks they
 * keep it, inverse-order.ts), so lists and counts of those relations stay exact (one statement
 * per referencing attribute). A deleted file (`rows`: its deleted rows) also leaves the media
 * attributes that held it.
 */
export async function forgetDocument(
  db: Knex,
  registry: Registry,
  uid: string,
  documentId: string,
  rows: Row[],
): Promise<void> {
  // media hold row ids, not documentIds: those rows are gone whatever other locales remain
  if (uid === FILE_UID)
    await forgetFiles(
      db,
      registry,
      rows.map((r) => Number(r.id)),
    );
  const stillThere = await db(registry.contentType(uid).collectionName)
    .first(COLUMNS.id)
    .where(COLUMNS.documentId, documentId);
  if (stillThere) return; // other locales of the document remain
  for (const ref of registry.relationsTo(uid)) {
    const toMany = isToMany(ref.attr);
    const held = holds(ref.attribute, documentId, toMany);
    const value = toMany ? listWithout(ref.attribute, documentId) : JSON_NULL;
    const write = withoutRank(setAttribute(ref.attribute, value), ref.attribute, documentId);
    await db(registry.contentType(ref.uid).collectionName)
      .whereRaw(held.sql, held.bindings)
      .update({ [COLUMNS.data]: raw(db, write) });
  }
}

/** Take deleted file ids out of every media attribute (single → null, multiple → the rest, in order). */
async function forgetFiles(db: Knex, registry: Registry, ids: number[]): Promise<void> {
  if (ids.length === 0) return; // an empty `where` below would select every row
  for (const ref of registry.mediaAttributes()) {
    const multiple = ref.attr.multiple === true;
    const holders = db(registry.contentType(ref.uid).collectionName).where((w) => {
      for (const id of ids) {
        const held = holdsFile(ref.attribute, id, multiple);
        w.orWhereRaw(held.sql, held.bindings);
      }
    });
    const value = multiple ? filesWithout(ref.attribute, ids) : JSON_NULL;
    await holders.update({ [COLUMNS.data]: raw(db, setAttribute(ref.attribute, value)) });
  }
}

/** A fragment as a knex raw value, for an update's `data`. */
const raw = (db: Knex, f: SqlFragment): Knex.Raw => db.raw(f.sql, f.bindings);
