import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { attachCancellation, CANCELLED_CONNECTION, type Cancellation } from './cancellation.ts';
import { prepareStatements, type StatementNamer } from './prepared.ts';

export interface ConnectionOptions {
  connectionString?: string;
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  ssl?: boolean | Record<string, unknown>;
}

const INT8_OID = 20;

/**
 * Per-connection type parsers: ids are bigserial (int8), which pg returns as strings.
 * Row ids stay far below 2^53, so numbers are safe; setting this per connection (not on
 * the global `pg.types`) keeps two apps in one process independent.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/** How long an unused pooled connection stays open, unless `pool.idleTimeoutMillis` says. */
export const IDLE_TIMEOUT_MS = 10 * 60_000;

/** Open a knex pool on PostgreSQL. */
export function createConnection(options: {
  connection: ConnectionOptions | string;
  pool?: { min?: number; max?: number; idleTimeoutMillis?: number };
  /** observes every SQL statement (tests count statements with it) */
  onQuery?: (sql: string) => void;
  /** milliseconds any one statement may run before PostgreSQL cancels it (0: no limit) */
  statementTimeout?: number;
  /** cancels a request's statements when its client goes away (see cancellation.ts) */
  cancellation?: Cancellation;
  /** names the pool's sessions in pg_stat_activity (shutdown finds them with it); a URL's own one wins */
  applicationName?: string;
  /** names the parameterized statements of every pooled connection (prepared.ts `prepareStatements`) */
  prepare?: StatementNamer;
  /** where knex's own warnings go (console otherwise) */
  log?: { warn(msg: string): void; debug(msg: string): void };
}): Knex {
  const connection =
    typeof options.connection === 'string' ? { connectionString: options.connection } : options.connection;
  // startup parameters: every pooled connection has them from its first statement, at no extra round trip
  const timeout = options.statementTimeout ? { statement_timeout: options.statementTimeout } : {};
  const named = options.applicationName ? { application_name: options.applicationName } : {};
  // on any server: no JIT compilation, which costs more than the short statements Vellum sends
  // (DESIGN.md, "PostgreSQL settings and indexes"); a URL's own `options` win
  const session = { options: '-c jit=off' };
  const { cancellation, prepare } = options;
  const db = knexFactory({
    client: 'pg',
    connection: { ...session, ...connection, ...timeout, ...named, types } as Knex.PgConnectionConfig,
    pool: {
      min: options.pool?.min ?? 0,
      max: options.pool?.max ?? 10,
      // a connection holds its prepared statements (prepared.ts): one closed after tarn's default 30 s
      // idle makes the next burst parse and plan every shape again on a new one
      idleTimeoutMillis: options.pool?.idleTimeoutMillis ?? IDLE_TIMEOUT_MS,
      ...((cancellation || prepare) && {
        afterCreate(client: pg.Client, done: (err: Error | null, client: pg.Client) => void) {
          if (prepare) prepareStatements(client, prepare);
          if (cancellation) {
            // bounded: a statement's answer waits for its cancel to be delivered
            const canceller = {
              ...(connection as pg.ClientConfig),
              connectionTimeoutMillis: 5000,
              query_timeout: 5000,
            };
            attachCancellation(client, cancellation, () => new pg.Client(canceller));
          }
          done(null, client);
        },
      }),
    },
    acquireConnectionTimeout: 10000,
    ...(options.log && { log: knexLog(options.log) }),
  });
  if (options.onQuery) {
    const onQuery = options.onQuery;
    db.on('query', (q: { sql: string }) => onQuery(q.sql));
  }
  return db;
}

/** knex's logger on the app's: a pooled connection closed after a cancel is routine, not a warning. */
function knexLog(log: { warn(msg: string): void; debug(msg: string): void }): Knex.Config['log'] {
  const text = (m: unknown): string => (typeof m === 'string' ? m : String((m as Error)?.message ?? m));
  return {
    warn: (m: unknown) => (text(m).endsWith(CANCELLED_CONNECTION) ? log.debug(text(m)) : log.warn(text(m))),
    error: (m: unknown) => log.warn(text(m)),
    deprecate: (m: unknown) => log.debug(text(m)),
    debug: (m: unknown) => log.debug(text(m)),
  };
}
