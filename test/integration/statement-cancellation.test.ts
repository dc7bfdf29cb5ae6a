/**
 * A cancel is a signal to a backend, not to a statement. When the statement it was meant for ends
 * before the signal arrives, the signal stops whatever that backend runs next: on a pooled
 * connection, another request's statement (the bench once got a 503 from exactly that). These
 * tests slow the canceller down so that the statement always ends first, on a real pool and a
 * real PostgreSQL.
 */
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { attachCancellation, createCancellation } from '../../database/cancellation.ts';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A connection for the cancel whose connect or statements wait `delay` ms first; `sent` gets each cancel's pid. */
function slowCanceller(url: string, delay: { connect?: number; query?: number }, sent: number[]): () => pg.Client {
  return () => {
    const client = new pg.Client({ connectionString: url });
    const connect = client.connect.bind(client);
    const query = client.query.bind(client) as (text: string, values: unknown[]) => Promise<unknown>;
    Object.assign(client, {
      connect: async () => {
        await sleep(delay.connect ?? 0);
        return connect();
      },
      query: async (text: string, values: number[]) => {
        sent.push(values[0] as number);
        await sleep(delay.query ?? 0);
        return query(text, values);
      },
    });
    return client;
  };
}

let db: Knex | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

/** A one-connection pool whose statements are cancellable the way the app's are. */
function pool(canceller: () => pg.Client, warnings: string[]) {
  const cancellation = createCancellation();
  db = knexFactory({
    client: 'pg',
    connection: inject('databaseAdminUrl'),
    pool: {
      min: 0,
      max: 1,
      afterCreate(client: pg.Client, done: (err: Error | null, client: pg.Client) => void) {
        attachCancellation(client, cancellation, canceller);
        done(null, client);
      },
    },
    log: { warn: (m: string) => warnings.push(m), error: () => {}, deprecate: () => {}, debug: () => {} },
  });
  const read = async (sql: string): Promise<{ pid: number }> => {
    const res = await (db as Knex).raw(sql);
    return res.rows[0];
  };
  /** `sql` as a request whose client goes away after `abortAfter` ms. */
  const abandoned = (sql: string, abortAfter: number): Promise<{ pid: number } | Error> => {
    const request = new AbortController();
    setTimeout(() => request.abort(), abortAfter);
    return cancellation.run(request.signal, () => read(sql).catch((err: Error) => err));
  };
  return { read, abandoned };
}

describe('cancelling an abandoned request’s statement', () => {
  it('never lets a late cancel stop the next request on the same connection', async () => {
    const sent: number[] = [];
    const warnings: string[] = [];
    // the cancel reaches PostgreSQL 300 ms after the check that the statement still runs
    const { read, abandoned } = pool(slowCanceller(inject('databaseAdminUrl'), { query: 300 }, sent), warnings);
    // the pool's connection made first: on a busy machine, making it inside the request took most of the margin
    await read('SELECT 1');
    const first = await abandoned('SELECT pg_backend_pid() AS pid, pg_sleep(0.15)', 30);
    // the statement ended on its own, before the cancel was delivered
    expect(first).toMatchObject({ pid: expect.any(Number) });
    const firstPid = (first as { pid: number }).pid;
    expect(sent).toEqual([firstPid]);
    // the next request gets the pool's only slot: it must not run on the backend the cancel was sent to
    const second = await read('SELECT pg_backend_pid() AS pid, pg_sleep(0.5)');
    expect(second.pid).not.toBe(firstPid);
    expect(warnings.length).toBeGreaterThan(0);
    const third = await read('SELECT pg_backend_pid() AS pid');
    expect(third.pid).toBe(second.pid);
  });

  it('sends no cancel, and keeps the connection, when the statement ended before one could be sent', async () => {
    const sent: number[] = [];
    const warnings: string[] = [];
    const { read, abandoned } = pool(slowCanceller(inject('databaseAdminUrl'), { connect: 300 }, sent), warnings);
    await read('SELECT 1');
    const first = await abandoned('SELECT pg_backend_pid() AS pid, pg_sleep(0.1)', 10);
    expect(first).toMatchObject({ pid: expect.any(Number) });
    const second = await read('SELECT pg_backend_pid() AS pid, pg_sleep(0.4)');
    expect(second.pid).toBe((first as { pid: number }).pid);
    expect(sent).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('still cancels a statement that runs when the cancel arrives, and the pool serves the next request', async () => {
    const sent: number[] = [];
    const warnings: string[] = [];
    const { read, abandoned } = pool(slowCanceller(inject('databaseAdminUrl'), {}, sent), warnings);
    await read('SELECT 1');
    const started = Date.now();
    const first = await abandoned('SELECT pg_backend_pid() AS pid, pg_sleep(5)', 50);
    expect(first).toBeInstanceOf(Error);
    expect((first as Error & { code?: string }).code).toBe('57014');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(sent).toHaveLength(1);
    const next = await read('SELECT pg_backend_pid() AS pid');
    expect(next.pid).not.toBe(sent[0]);
  });
});
