import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../database/embedded.ts';
import { copyApp } from '../../testing.ts';
import { ROOT } from '../helpers/app.ts';
import { exited, startCli, type RunningCli } from '../helpers/cli.ts';
import { useTestDatabase } from '../helpers/database.ts';
import { holdPort, postmasterOf, release } from '../helpers/postgres-process.ts';

const UNAVAILABLE = 'The database is unavailable; try again shortly';
const dirs: string[] = [];
const running: RunningCli[] = [];
const servers: EmbeddedPostgresHandle[] = [];
afterAll(async () => {
  for (const r of running) r.child.kill('SIGKILL');
  for (const s of servers) await s.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

// mkdtemp dirs are 0700; as root, the postgres user must be able to reach the cluster inside
async function dataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vellum-outage-'));
  await chmod(dir, 0o755);
  dirs.push(dir);
  return dir;
}

async function start(env: Record<string, string>, args: string[] = []): Promise<RunningCli> {
  // without the response cache: a read it kept may be answered in the instant before its LISTEN
  // connection is seen to be gone, and these tests are about what the database's absence answers
  const cli = await startCli({ RESPONSE_CACHE: 'false', ...env }, args);
  running.push(cli);
  return cli;
}

const tags = (cli: RunningCli): Promise<Response> => fetch(`${cli.url}/api/tags`);

/** The next request answers 503 in the error envelope. */
async function expectUnavailable(cli: RunningCli): Promise<void> {
  const res = await tags(cli);
  expect(res.status).toBe(503);
  expect(await res.json()).toEqual({
    data: null,
    error: { status: 503, name: 'ServiceUnavailableError', message: UNAVAILABLE, details: {} },
  });
}

/** Requests succeed again within `timeout` ms. */
const expectRecovered = (cli: RunningCli, timeout = 20_000): Promise<void> =>
  expect.poll(async () => (await tags(cli).catch(() => null))?.status, { timeout, interval: 200 }).toBe(200);

async function rows<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('the process survives its database', () => {
  it('restarts the embedded PostgreSQL after it was killed: 503 during the outage, 200 once it is back', async () => {
    const dir = await dataDir();
    const cli = await start({ VELLUM_DATA_DIR: dir });
    expect((await tags(cli)).status).toBe(200);

    const before = await postmasterOf(path.join(dir, 'pg'));
    process.kill(before.pid, 'SIGKILL');
    // keeps the server down (its restarts cannot bind the port) for as long as the test needs
    const squatter = await holdPort(before.port);
    try {
      await expectUnavailable(cli);
      expect((await fetch(`${cli.url}/_health`)).status).toBe(503);
    } finally {
      await release(squatter);
    }
    await expectRecovered(cli);
    expect((await postmasterOf(path.join(dir, 'pg'))).pid).not.toBe(before.pid);
    expect(cli.output()).toContain('embedded PostgreSQL exited unexpectedly');
    expect(cli.output()).toContain('embedded PostgreSQL restarted');

    cli.child.kill('SIGTERM');
    expect(await exited(cli.child)).toBe(0);
  }, 90_000);

  it('exits non-zero, saying why, when the embedded PostgreSQL cannot be restarted', async () => {
    const dir = await dataDir();
    const cli = await start({ VELLUM_DATA_DIR: dir, EMBEDDED_PG_RESTARTS: '2' });
    const { pid, port } = await postmasterOf(path.join(dir, 'pg'));
    process.kill(pid, 'SIGKILL');
    const squatter = await holdPort(port);
    try {
      expect(await exited(cli.child)).toBe(1);
    } finally {
      await release(squatter);
    }
    expect(cli.output()).toContain('restart attempt 2 failed');
    expect(cli.output()).toContain('embedded PostgreSQL exited and could not be restarted (2 attempts)');
    expect(cli.output()).toContain('"reason":"database lost"');
  }, 90_000);

  it('on an external database (DATABASE_URL), answers 503 while it is down and recovers when it is back', async () => {
    const dir = await dataDir();
    const first = await startEmbeddedPostgres({ dataDir: path.join(dir, 'external'), restarts: 0 });
    servers.push(first);
    const cli = await start({ DATABASE_URL: first.url, VELLUM_DATA_DIR: path.join(dir, 'never') });
    expect((await tags(cli)).status).toBe(200);

    await first.stop();
    await expectUnavailable(cli);
    await expectUnavailable(cli); // and stays so, without a restart attempt of its own

    const port = Number(new URL(first.url).port);
    const again = await startEmbeddedPostgres({ dataDir: path.join(dir, 'external'), port, restarts: 0 });
    servers.push(again);
    expect(again.url).toBe(first.url);
    await expectRecovered(cli, 10_000);

    cli.child.kill('SIGTERM');
    expect(await exited(cli.child)).toBe(0);
  }, 90_000);

  it('on SIGTERM during a long statement, cancels it at SHUTDOWN_TIMEOUT_MS and exits 0', async () => {
    const database = await useTestDatabase();
    const appDir = await copyApp(path.join(ROOT, 'examples/blog'));
    dirs.push(appDir);
    await writeFile(
      path.join(appDir, 'src/index.ts'),
      `export default {
  register({ app }) {
    app.server.route({
      method: 'GET', path: '/api/sleep', config: { auth: false },
      handler: async (ctx) => { await app.db.raw('SELECT pg_sleep(60)'); ctx.body = { slept: true }; },
    });
  },
};
`,
    );
    const shutdownMs = 1500;
    try {
      const env = { DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_MS: String(shutdownMs) };
      const cli = await start(env, ['--app', appDir]);
      const sleeping = fetch(`${cli.url}/api/sleep`).then(
        (r) => r.status,
        () => 'cut',
      );
      const sleepers = (): Promise<Array<{ app: string }>> =>
        rows(
          database.url,
          "SELECT application_name AS app FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(60)' AND " +
            "state = 'active'",
        );
      await expect.poll(async () => (await sleepers()).length, { timeout: 10_000 }).toBe(1);
      expect((await sleepers())[0].app).toMatch(/^vellum-\d+-[0-9a-f]{8}$/);

      const signalled = Date.now();
      cli.child.kill('SIGTERM');
      expect(await exited(cli.child)).toBe(0);
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(shutdownMs - 50); // it did wait for the request first
      expect(took).toBeLessThan(shutdownMs + 2500);
      expect(await sleeping).toBe('cut');
      expect(await sleepers()).toEqual([]);
      // cut by the request's own cancellation (its connection was dropped at the deadline) or, for a
      // statement no request waits on, by the shutdown's sweep of the app's sessions
      expect(cli.output()).toMatch(
        /"url":"\/api\/sleep","status":503|"msg":"shutdown timeout: cancelled running statements"/,
      );
    } finally {
      await database.drop();
    }
  }, 90_000);
});
