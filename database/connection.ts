import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { attachCancellation, type Cancellation } from './cancellation.ts';

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

/** Open a knex pool on PostgreSQL. */
export function createConnection(options: {
  connection: ConnectionOptions | string;
  pool?: { min?: number; max?: number };
  /** observes every SQL statement (tests count statements with it) */
  onQuery?: (sql: string) => void;
  /** milliseconds any one statement may run before PostgreSQL cancels it (0: no limit) */
  statementTimeout?: number;
  /** cancels a request's statements when its client goes away (see cancellation.ts) */
  cancellation?: Cancellation;
  /** names the pool's sessions in pg_stat_activity (shutdown finds them with it); a URL's own one wins */
  applicationName?: string;
}): Knex {
  const connection =
    typeof options.connection === 'string' ? { connectionString: options.connection } : options.connection;
  // startup parameters: every pooled connection has them from its first statement, at no extra round trip
  const timeout = options.statementTimeout ? { statement_timeout: options.statementTimeout } : {};
  const named = options.applicationName ? { application_name: options.applicationName } : {};
  // on any server: no JIT compilation, which costs more than the short statements Vellum sends
  // (DESIGN.md, "PostgreSQL settings and indexes"); a URL's own `options` win
  const session = { options: '-c jit=off' };
  const { cancellation } = options;
  const db = knexFactory({
    client: 'pg',
    connection: { ...session, ...connection, ...timeout, ...named, types } as Knex.PgConnectionConfig,
    pool: {
      min: options.pool?.min ?? 0,
      max: options.pool?.max ?? 10,
      ...(cancellation && {
        afterCreate(client: pg.Client, done: (err: Error | null, client: pg.Client) => void) {
          attachCancellation(client, cancellation, () => new pg.Client(connection as pg.ClientConfig));
          done(null, client);
        },
      }),
    },
    acquireConnectionTimeout: 10000,
  });
  if (options.onQuery) {
    const onQuery = options.onQuery;
    db.on('query', (q: { sql: string }) => onQuery(q.sql));
  }
  return db;
}
