import type { Knex } from 'knex';
import type { ContentType } from '../content-types/types.ts';

/**
 * What a write locks: one document of a collection type (all its locales and versions), or a
 * whole single type, which has one document whose id a first write does not know yet. null:
 * the write creates a new document, which nobody else can be writing.
 */
export function writeLockKey(ct: ContentType, documentId: string | undefined): string | null {
  if (ct.kind === 'singleType') return `vellum:single:${ct.uid}`;
  return documentId ? `vellum:document:${ct.uid}:${documentId}` : null;
}

/**
 * Hold `key` until `trx` ends. An advisory lock rather than row locks: it exists before the
 * rows do (two first writes of a locale wait for each other), and a writer holds one per
 * document, so writers to one document queue instead of locking its rows in opposite orders.
 */
export async function takeWriteLock(trx: Knex, key: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
}
