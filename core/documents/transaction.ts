import type { Knex } from 'knex';
import { conflict, serviceUnavailable } from '../errors.ts';

/** serialization_failure and deadlock_detected: PostgreSQL undid the transaction; run again, it may pass. */
const RETRYABLE = new Set(['40001', '40P01']);
/** lock_not_available: a `lock_timeout` (or NOWAIT) gave up waiting. Waiting again would only wait longer. */
const LOCK_NOT_AVAILABLE = '55P03';

export interface RetryPolicy {
  /** how many times a failed transaction runs again before the caller gets a 409 */
  retries: number;
  /** the pause before retry n is about n × this, randomized so two losers do not meet again */
  pauseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, pauseMs: 10 };

/** The SQLSTATE of a PostgreSQL error (pg puts it on `code`), if `err` is one. */
function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Run `work` in a new transaction. When PostgreSQL aborts it to break a deadlock or because it
 * cannot be serialized, everything it wrote is rolled back, so it runs again, a bounded number
 * of times; a loser of every attempt is answered 409 ConflictError, a lock wait that timed out
 * 503, never a 500. `work` must therefore be safe to run again (its database effects are; any
 * other side effect must be too).
 */
export async function writeTransaction<T>(
  db: Knex,
  work: (trx: Knex.Transaction) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const code = sqlState(err);
      if (code === LOCK_NOT_AVAILABLE) {
        const message = 'A document is locked by another request; try again later';
        throw serviceUnavailable(message, { code: 'LOCK_TIMEOUT', cause: err });
      }
      if (code === undefined || !RETRYABLE.has(code)) throw err;
      if (attempt > policy.retries) throw conflict(undefined, { cause: err });
      await pause(policy.pauseMs * attempt * (0.5 + Math.random()));
    }
  }
}
