/**
 * Cancelling the statements of a request whose client went away. Without it, an abandoned
 * slow read keeps its pool connection until it finishes: ten clients that each give up after
 * a second can hold every connection, and everyone else waits or fails.
 *
 * The HTTP layer runs each request under an AbortSignal (`run`); every statement a pooled
 * connection starts while that signal is current is cancelled (`pg_cancel_backend`, from a
 * connection of its own, since the pool may be full) when the signal aborts, and a statement
 * is not started at all once it has. One instance per app: no process-wide state.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

export interface Cancellation {
  /** Run `work` with `signal` as the current request's. */
  run<T>(signal: AbortSignal, work: () => T): T;
  /** The signal of the request whose work is running, if any. */
  current(): AbortSignal | undefined;
}

export function createCancellation(): Cancellation {
  const store = new AsyncLocalStorage<AbortSignal>();
  return { run: (signal, work) => store.run(signal, work), current: () => store.getStore() };
}

/** What `pg.Client#query` is called with by knex: a config object and a node-style callback. */
type QueryCallback = (err: Error | null, result?: unknown) => void;

/** The error a statement gets when its request was abandoned before it started (as PostgreSQL's own). */
function cancelledError(): Error {
  return Object.assign(new Error('canceling statement due to user request'), { code: '57014' });
}

/**
 * Whether a statement ends a transaction (knex's ROLLBACK / COMMIT, and a savepoint's). It is never
 * cancelled nor skipped: a connection whose ROLLBACK was skipped goes back to the pool inside a failed
 * transaction, and every statement of every later request on it fails ("current transaction is aborted").
 */
function endsTransaction(config: unknown): boolean {
  const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' && /^\s*(ROLLBACK|COMMIT|RELEASE)\b/i.test(text);
}

/**
 * Why a connection was taken out of the pool (knex's pool reads `__knex__disposed` before it hands a
 * connection out, and closes one that has it instead). The pool logs it; the app logs it at debug.
 */
export const CANCELLED_CONNECTION = 'a cancel was sent to its backend, so it is closed rather than reused';

/**
 * Make the statements `client` runs cancellable by the current request's signal. `connect`
 * opens a separate connection for the cancel itself.
 *
 * A cancel is a signal to the backend, not to a statement: one that arrives after the statement
 * ended stops whatever that backend runs next, which on a pooled connection is another request's.
 * So a connection is never reused once a cancel was sent to it (it is marked for the pool to close
 * before the statement can end and release it), and the statement's answer is held until the
 * cancel has been delivered, so that the same request's ROLLBACK does not meet it either.
 */
export function attachCancellation(client: pg.Client, cancellation: Cancellation, connect: () => pg.Client): void {
  const query = client.query.bind(client) as (config: unknown, callback?: QueryCallback) => unknown;
  const patched = (config: unknown, callback?: QueryCallback): unknown => {
    const signal = cancellation.current();
    if (!signal || typeof callback !== 'function' || endsTransaction(config)) return query(config, callback);
    if (signal.aborted) {
      queueMicrotask(() => callback(cancelledError()));
      return undefined;
    }
    let running = true;
    let delivering: Promise<void> | undefined;
    const onAbort = (): void => {
      void cancelBackend(
        connect,
        client,
        () => running,
        (sent) => {
          delivering = sent;
        },
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    return query(config, (err, result) => {
      running = false;
      signal.removeEventListener('abort', onAbort);
      if (delivering) void delivering.then(() => callback(err, result));
      else callback(err, result);
    });
  };
  (client as unknown as { query: typeof patched }).query = patched;
}

/**
 * Cancel what `client`'s backend runs, if the statement is still running once the cancel can be
 * sent. `sending` learns the cancel's delivery the moment the client is marked, in the same turn as
 * the check that the statement still runs, so neither can be missed by the statement's end.
 */
async function cancelBackend(
  connect: () => pg.Client,
  client: pg.Client,
  stillRunning: () => boolean,
  sending: (delivered: Promise<void>) => void,
): Promise<void> {
  const pid = (client as unknown as { processID?: number }).processID;
  if (!pid) return;
  const canceller = connect();
  try {
    await canceller.connect();
    // the statement may have ended while connecting: then the backend runs someone else's
    if (!stillRunning()) return;
    (client as unknown as { __knex__disposed?: string }).__knex__disposed = CANCELLED_CONNECTION;
    const delivered = canceller.query('SELECT pg_cancel_backend($1)', [pid]).then(
      () => undefined,
      () => undefined,
    );
    sending(delivered);
    await delivered;
  } catch {
    // the database is gone or full: the statement timeout still bounds the statement
  } finally {
    await canceller.end().catch(() => undefined);
  }
}
