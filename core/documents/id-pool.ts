import type { Knex } from 'knex';

/** Ids drawn from a PostgreSQL sequence, a block at a time. */
export interface IdPool {
  /** `n` ids no one else has been or will be given */
  take(db: Knex, n: number): Promise<number[]>;
}

/**
 * Component instances need ids on every write that creates them, a publish's copy included; one
 * `nextval` statement per write was a round trip of its own on every published `PUT`. A sequence
 * hands out each value once whatever the transaction that drew it does (a rollback does not give
 * it back), so an instance can keep a block and give its ids to any write: ids stay unique across
 * instances and transactions; only their order no longer follows the order of the writes, and a
 * stopped instance leaves a gap, as a rolled-back transaction always did.
 */
export function createIdPool(sequence: string, block = 64): IdPool {
  const free: number[] = [];
  return {
    async take(db, n) {
      if (free.length < n) {
        const want = Math.max(block, n - free.length);
        const { rows } = await db.raw('SELECT nextval(?) AS id FROM generate_series(1, ?)', [sequence, want]);
        for (const row of rows as Array<{ id: string }>) free.push(Number(row.id));
      }
      return free.splice(0, n);
    },
  };
}
