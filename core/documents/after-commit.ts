import type { Knex } from 'knex';
import { configurationError } from '../errors.ts';
import { writeTransaction } from './transaction.ts';
import type { AfterCommit } from './types.ts';

/** Transactions that know what to do once they commit. */
export interface CommitHooks {
  /** `writeTransaction`, then the hooks the attempt that committed queued, in order */
  transaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T>;
  /** queue `fn` on `conn`'s transaction (one `transaction` opened), or run it now outside any */
  add(conn: Knex, fn: AfterCommit): Promise<void>;
}

/**
 * After-commit hooks, kept per transaction attempt: an attempt PostgreSQL aborts (and
 * `writeTransaction` runs again) or that throws takes its hooks with it, so a hook only ever
 * sees committed rows. A hook that fails is reported to `onError`, never to the caller, whose
 * write is committed whatever the hook does.
 */
export function createCommitHooks(onError: (err: unknown) => void): CommitHooks {
  const pending = new WeakMap<Knex, AfterCommit[]>();

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
      let committed: { trx: Knex; hooks: AfterCommit[] } | undefined;
      const result = await writeTransaction(db, (trx) => {
        committed = { trx, hooks: [] };
        pending.set(trx, committed.hooks);
        return work(trx);
      });
      // a hook queued from now on would wait for a commit that already happened: refused by `add`
      pending.delete(committed!.trx);
      await runAll(committed!.hooks);
      return result;
    },
    async add(conn, fn) {
      const hooks = pending.get(conn);
      if (hooks) {
        hooks.push(fn);
        return;
      }
      // a savepoint, a transaction of the caller's own or one already over: when it commits is not known here
      if (conn.isTransaction) {
        throw configurationError('afterCommit takes a transaction the document service opened, while it is open');
      }
      await runAll([fn]);
    },
  };
}
