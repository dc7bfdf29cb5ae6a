/**
 * A pooled connection holds the statements prepared on it (database/prepared.ts), so the pool
 * keeps an unused one for 10 minutes (`database.pool.idleTimeoutMillis`), not tarn's 30 s: a burst
 * of traffic after a quiet spell would otherwise parse and plan every read's shape again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDLE_TIMEOUT_MS } from '../../database/connection.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let kept: TestApp;
let closed: TestApp;
beforeAll(async () => {
  kept = await startApp();
  closed = await startApp({ config: { database: { pool: { idleTimeoutMillis: 200 } } } });
});
afterAll(async () => {
  await kept?.close();
  await closed?.close();
});

/** The app's pooled sessions (not its LISTEN one), seen from a session of our own. */
async function pooled(app: TestApp): Promise<number> {
  const client = new pg.Client({ connectionString: app.database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND application_name LIKE 'vellum-%'
          AND application_name NOT LIKE '%-listen'`,
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

/** Several reads at once, so the pool opens several connections. */
const burst = (app: TestApp) =>
  Promise.all(Array.from({ length: 6 }, (_, i) => app.request('GET', `/api/articles?pagination[page]=${i + 1}`)));

describe('idle pooled connections', () => {
  it('stay open past tarn’s reaping by default, and close after a configured idle time', async () => {
    for (const app of [kept, closed]) {
      const answers = await burst(app);
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(await pooled(app)).toBeGreaterThan(0);
    }
    // tarn looks for idle connections every second
    await new Promise((r) => setTimeout(r, 2500));
    expect(await pooled(kept)).toBeGreaterThan(0);
    expect(await pooled(closed)).toBe(0);
    // and the next request opens one again
    expect((await closed.request('GET', '/api/articles')).status).toBe(200);
  });

  it('keeps an unused connection for 10 minutes unless configured (tarn would close it after 30 s)', () => {
    const idle = (app: TestApp) =>
      (app.app.db.client as { pool: { idleTimeoutMillis: number } }).pool.idleTimeoutMillis;
    expect(idle(kept)).toBe(IDLE_TIMEOUT_MS);
    expect(IDLE_TIMEOUT_MS).toBe(600_000);
    expect(idle(closed)).toBe(200);
  });

  it('rejects an idle time that is not a positive integer', async () => {
    await expect(startApp({ config: { database: { pool: { idleTimeoutMillis: -1 } } } })).rejects.toThrow(
      /pool\.idleTimeoutMillis/,
    );
  });
});
