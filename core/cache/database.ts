/**
 * Generations in PostgreSQL: `vellum_generations(key, generation)`, bumped at the end of every
 * write transaction (keys sorted, so two writers lock their rows in one order), with a NOTIFY per
 * key that PostgreSQL delivers only if the transaction commits. Other instances LISTEN on a
 * connection of their own (not the pool's: a pooled connection goes back to other work).
 */
import type { Knex } from 'knex';
import pg from 'pg';
import type { Logger } from 'pino';
import type { ConnectionOptions } from '../../database/connection.ts';
import type { Generations } from './generations.ts';

export const GENERATIONS_TABLE = 'vellum_generations';
export const GENERATIONS_CHANNEL = 'vellum_generations';

/** The table, created by the schema sync (database/sync.ts) with the document tables. */
const GENERATIONS_COLUMNS = 'key text PRIMARY KEY, generation bigint NOT NULL';
export const GENERATIONS_DDL = `CREATE TABLE IF NOT EXISTS ${GENERATIONS_TABLE} (${GENERATIONS_COLUMNS})`;

/** Bump `keys` in `conn`'s transaction and queue their NOTIFY; returns the new generations. */
export async function bumpGenerations(conn: Knex, keys: Iterable<string>): Promise<Array<[string, number]>> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return [];
  // named by a comment: statement logs (and tests counting a request's reads) tell it from a read
  const { rows } = (await conn.raw(
    `/* vellum: generations */ WITH bumped AS (
       INSERT INTO ${GENERATIONS_TABLE} (key, generation)
       SELECT k, 1 FROM unnest(?::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n
       ON CONFLICT (key) DO UPDATE SET generation = ${GENERATIONS_TABLE}.generation + 1
       RETURNING key, generation
     )
     SELECT key, generation, pg_notify(?, key || ' ' || generation) FROM bumped`,
    [sorted, GENERATIONS_CHANNEL],
  )) as { rows: Array<{ key: string; generation: string | number }> };
  return rows.map((r) => [r.key, Number(r.generation)]);
}

/** Every generation the database holds. */
async function loadAll(client: pg.Client): Promise<Array<[string, number]>> {
  const { rows } = await client.query<{ key: string; generation: string }>(
    `SELECT key, generation::text AS generation FROM ${GENERATIONS_TABLE}`,
  );
  return rows.map((r) => [r.key, Number(r.generation)]);
}

export interface GenerationListener {
  /** the first connection tried (resolves whether it worked or not: retries go on in the background) */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5000;
/**
 * A connection cut without a FIN (a partition, a host gone) looks alive to the client until it
 * writes: a round trip this often, answered within as long again, or the connection is given up
 * (notifications may be lost meanwhile, so this bounds how long a stale entry can be served).
 */
const HEARTBEAT_MS = 5000;

/**
 * LISTEN for other instances' bumps. While connected, each notification applies to `generations`;
 * on every (re)connection, LISTEN first, then reload every generation, then resume (the cache
 * clears: notifications may have been missed while away). A lost connection suspends serving and
 * reconnects with a growing pause.
 */
export function listenForGenerations(deps: {
  connection: ConnectionOptions | string;
  applicationName: string;
  generations: Generations;
  onResume: () => void;
  log: Logger;
}): GenerationListener {
  const { generations, log } = deps;
  const base = typeof deps.connection === 'string' ? { connectionString: deps.connection } : deps.connection;
  let client: pg.Client | undefined;
  let stopped = false;
  let backoff = MIN_BACKOFF_MS;
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  function lost(c: pg.Client, err?: unknown): void {
    if (client !== c) return;
    client = undefined;
    clearInterval(heartbeat);
    generations.suspend();
    c.end().catch(() => undefined);
    if (stopped) return;
    log.warn({ err, retryInMs: backoff }, 'response cache: lost the LISTEN connection; serving uncached');
    timer = setTimeout(() => void connect(), backoff);
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }

  async function connect(): Promise<void> {
    timer = undefined;
    const c = new pg.Client({
      ...(base as pg.ClientConfig),
      application_name: `${deps.applicationName}-listen`,
      keepAlive: true,
    });
    client = c;
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (n.channel !== GENERATIONS_CHANNEL || !n.payload) return;
      const at = n.payload.lastIndexOf(' ');
      generations.apply(n.payload.slice(0, at), Number(n.payload.slice(at + 1)));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${GENERATIONS_CHANNEL}`);
      for (const [key, generation] of await loadAll(c)) generations.apply(key, generation);
      if (client !== c || stopped) return;
      generations.resume();
      deps.onResume();
      backoff = MIN_BACKOFF_MS;
      heartbeat = setInterval(() => beat(c), HEARTBEAT_MS);
      heartbeat.unref();
    } catch (err) {
      lost(c, err);
    }
  }

  function beat(c: pg.Client): void {
    const late = setTimeout(() => lost(c, new Error('the LISTEN connection did not answer a heartbeat')), HEARTBEAT_MS);
    late.unref();
    c.query('SELECT 1').then(
      () => clearTimeout(late),
      (err: unknown) => {
        clearTimeout(late);
        lost(c, err);
      },
    );
  }

  const ready = connect();
  return {
    ready,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      generations.suspend();
      await c?.end().catch(() => undefined);
    },
  };
}
