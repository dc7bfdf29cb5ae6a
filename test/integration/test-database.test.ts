import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../database/test-database.ts';
import { useTestDatabase } from '../helpers/database.ts';
import { createCleanup } from '../../scripts/bench/cleanup.ts';
import { startBenchDatabase } from '../../scripts/bench/database.ts';

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const userTables = (url: string) =>
  query<{ table_name: string }>(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
  );

describe('createTestDatabase', () => {
  const adminUrl = inject('databaseAdminUrl');
  const created: TestDatabase[] = [];
  afterAll(async () => {
    for (const db of created) await db.drop();
  });

  it('gives each caller a different, empty database reachable at its url', async () => {
    const a = await createTestDatabase(adminUrl);
    const b = await createTestDatabase(adminUrl);
    created.push(a, b);

    expect(a.name).toMatch(/^vellum_t_[a-z0-9]{12}$/);
    expect(b.name).toMatch(/^vellum_t_[a-z0-9]{12}$/);
    expect(a.name).not.toBe(b.name);
    expect(await query(a.url, 'SELECT current_database() AS db')).toEqual([{ db: a.name }]);
    expect(await query(b.url, 'SELECT current_database() AS db')).toEqual([{ db: b.name }]);
    expect(await userTables(a.url)).toEqual([]);
    expect(await userTables(b.url)).toEqual([]);

    await query(a.url, 'CREATE TABLE only_in_a (id int PRIMARY KEY)');
    await query(a.url, 'INSERT INTO only_in_a VALUES (1)');
    expect(await query(a.url, 'SELECT id FROM only_in_a')).toEqual([{ id: 1 }]);
    expect(await query(b.url, "SELECT to_regclass('public.only_in_a') AS t")).toEqual([{ t: null }]);
  });

  it('drop() removes the database even while a connection to it is still open', async () => {
    const db = await createTestDatabase(adminUrl);
    const leaked = new pg.Client({ connectionString: db.url });
    leaked.on('error', () => {}); // it gets terminated on purpose
    await leaked.connect();
    const listed = () => query(adminUrl, 'SELECT datname FROM pg_database WHERE datname = $1', [db.name]);
    expect(await listed()).toHaveLength(1);

    await db.drop();
    expect(await listed()).toEqual([]);
    await db.drop(); // idempotent
    await leaked.end().catch(() => {});
  });

  it('useTestDatabase() gives a fresh database on the run-wide server', async () => {
    const db = await useTestDatabase();
    created.push(db);
    expect(new URL(db.url).host).toBe(new URL(adminUrl).host);
    expect(await userTables(db.url)).toEqual([]);
  });
});

const settings = async (url: string) =>
  Object.fromEntries(
    (
      await query<{ name: string; setting: string }>(
        url,
        "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes')",
      )
    ).map((r) => [r.name, r.setting]),
  );

// $DATABASE_URL is whatever server its owner runs: nothing to say about its settings
describe.skipIf(Boolean(process.env.DATABASE_URL))('the test server and the bench database', () => {
  it("the test run's server gives up durability; the bench's keeps it, as npm start's and Strapi's do", async () => {
    expect(await settings(inject('databaseAdminUrl'))).toEqual({
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
    });
    const cleanup = createCleanup(() => {});
    try {
      const db = await startBenchDatabase(cleanup);
      expect(await settings(db.url)).toEqual({ fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' });
    } finally {
      await cleanup.run({ quiet: true });
    }
  }, 60_000);
});
