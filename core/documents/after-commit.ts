import type { Knex } from 'knex';
import { configurationError } from '../errors.ts';
import { writeTransaction } from './transaction.ts';
import type { AfterCommit } from './types.ts';

/**
 * Where a write transaction's content-type generations go (the response cache): `bump` runs last
 * in the transaction, with every key it wrote; what it returns runs first once it committed.
 */
export interface GenerationBumps {
  bump(conn: Knex, keys: Set<string>): Promise<() => void>;
}

/** Transactions that know what to do once they commit. */
export interface CommitHooks {
  /** `writeTransaction`, then the hooks the attempt that committed queued, in order */
  transaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** queue `fn` on `conn`'s transaction (one `transaction` opened), or run it now outside any */
  add(conn: Knex, fn: AfterCommit): Promise<void>;
  /** `key` (a content-type uid, or a document's: cache/document-keys.ts) was written on `conn`: bumped at commit */
  touch(conn: Knex, key: string): Promise<void>;
}

interface Attempt {
  trx: Knex;
  hooks: AfterCommit[];
  touched: Set<string>;
}

/**
 * After-commit hooks, kept per transaction attempt: an attempt PostgreSQL aborts (and
 * `writeTransaction` runs again) or that throws takes its hooks with it, so a hook only ever
 * sees committed rows. A hook that fails is reported to `onError`, never to the caller, whose
 * write is committed whatever the hook does. The keys an attempt touched are bumped at its end,
 * inside it (so the bump commits or rolls back with the write), and applied in memory before
 * any hook runs.
 */
export function createCommitHooks(onError: (err: unknown) => void, bumps?: GenerationBumps): CommitHooks {
  const pending = new WeakMap<Knex, Attempt>();

  async function runAll(hooks: AfterCommit[]): Promise<void> {
    for (const fn of hooks) {
      try {
        await fn();
      } catch (err) {
        onError(err);
      }
    }
  }

  return {
    async transaction(db, work) {
      let committed: Attempt | undefined;
      let applied: (() => void) | undefined;
      const result = await writeTransaction(db, async (trx) => {
        const attempt: Attempt = { trx, hooks: [], touched: new Set() };
        committed = attempt;
        applied = undefined;
        pending.set(trx, attempt);
        const out = await work(trx);
        // last in the transaction: the generation rows are locked for as short a time as can be
        if (bumps && attempt.touched.size > 0) applied = await bumps.bump(trx, attempt.touched);
        return out;
      });
      // a hook queued from now on would wait for a commit that already happened: refused by `add`
      pending.delete(committed!.trx);
      applied?.();
      await runAll(committed!.hooks);
      return result;
    },
    async add(conn, fn) {
      const attempt = pending.get(conn);
      if (attempt) {
        attempt.hooks.push(fn);
        return;
      }
      // a savepoint, a transaction of the caller's own or one already over: when it commits is not known here
      if (conn.isTransaction) {
        throw configurationError('afterCommit takes a transaction the document service opened, while it is open');
      }
      await runAll([fn]);
    },
    async touch(conn, key) {
      const attempt = pending.get(conn);
      if (attempt) {
        attempt.touched.add(key);
        return;
      }
      if (!bumps) return;
      if (conn.isTransaction) {
        throw configurationError('a write must run on a transaction the document service opened, while it is open');
      }
      // a write outside any transaction has committed already: bump now
      (await bumps.bump(conn, new Set([key])))();
    },
  };
}
