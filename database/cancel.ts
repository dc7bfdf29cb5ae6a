/**
 * Cancelling an app's running statements at shutdown. Closing a knex pool waits for every
 * connection in use, so one long statement (a request cut at the shutdown deadline, still
 * waiting on its query) would hold the process until it ends, and on an external server it
 * would go on running after the process is gone. The pool's connections carry an
 * `application_name` unique to the app, which finds them in pg_stat_activity; the cancel goes
 * through a connection of its own, since the pool may have none to spare.
 */
import pg from 'pg';
import type { ConnectionOptions } from './connection.ts';

export interface StatementCanceller {
  /** Stop waiting for the deadline; resolves once a cancel already under way has finished. */
  settle(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 2000;

/** `pg_cancel_backend` every statement the app's connections are running; returns how many. */
export async function cancelStatements(
  connection: ConnectionOptions | string,
  applicationName: string,
): Promise<number> {
  const config = typeof connection === 'string' ? { connectionString: connection } : connection;
  const client = new pg.Client({
    ...config,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: `${applicationName}-cancel`,
  });
  client.on('error', () => {}); // a server going away now must not crash the shutdown
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      // in the aggregate, not the WHERE: quals may be evaluated in any order
      `SELECT count(*) FILTER (WHERE pg_cancel_backend(pid))::int AS n FROM pg_stat_activity
        WHERE application_name = $1 AND state = 'active' AND pid <> pg_backend_pid()`,
      [applicationName],
    );
    return rows[0].n;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Cancel the app's running statements at `deadline` (at once if it has passed) unless `settle()`
 * comes first; failures are logged, never thrown: shutdown goes on either way.
 */
export function cancelStatementsAt(
  deadline: number,
  o: { connection: ConnectionOptions | string; applicationName: string; log: { warn(obj: object, msg: string): void } },
): StatementCanceller {
  let cancelling: Promise<void> | undefined;
  const timer = setTimeout(
    () => {
      cancelling = cancelStatements(o.connection, o.applicationName).then(
        (n) => {
          if (n) o.log.warn({ statements: n }, 'shutdown timeout: cancelled running statements');
        },
        (err: unknown) => o.log.warn({ err }, 'shutdown timeout: could not cancel running statements'),
      );
    },
    Math.max(0, deadline - Date.now()),
  );
  return {
    async settle() {
      clearTimeout(timer);
      await cancelling;
    },
  };
}
