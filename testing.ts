/**
 * Test helpers for Vellum apps (Vellum's own suite uses them too): a real app on a fresh
 * PostgreSQL database, listening on a free port, driven through real HTTP.
 */
import type { Knex } from 'knex';
import { pino } from 'pino';
import { createVellumApp, type App } from './index.ts';
import type { AppOptions } from './core/kernel/app.ts';
import { createTestDatabase, type TestDatabase } from './database/test-database.ts';
import { createConnection } from './database/connection.ts';
import { usersPermissionsPlugin } from './plugins/users-permissions/index.ts';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  /** parsed JSON, or the raw text when the body is not JSON (null when empty) */
  body: T;
  text: string;
}

export interface TestApp {
  app: App;
  url: string;
  /**
   * A full-access API token's key (null when the app runs without users-permissions or with
   * `as: 'public'`). `request` sends it unless told otherwise, so tests of content behaviour
   * need not set up permissions; pass `{ authorization: '' }` to send no credentials.
   */
  token: string | null;
  database: TestDatabase;
  /** every SQL statement the app ran, in order (clear it with `queries.length = 0`) */
  queries: string[];
  /** a separate connection to the test database, to look at rows directly */
  sql: Knex;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'databaseUrl' | 'onQuery'>> {
  appDir: string;
  /** a PostgreSQL URL with the right to create databases: each test app gets its own database there */
  adminUrl: string;
  /** who `request` is by default: a full-access API token (the default) or nobody (the Public role) */
  as?: 'full-access' | 'public';
}

/** Start an app on a fresh database and a free port. `close()` stops it and drops the database. */
export async function createTestApp(options: TestAppOptions): Promise<TestApp> {
  const { adminUrl, as = 'full-access', ...rest } = options;
  const database = await createTestDatabase(adminUrl);
  const queries: string[] = [];
  const app = await createVellumApp({
    logger: pino({ level: process.env.VELLUM_TEST_LOG ?? 'silent' }),
    env: {},
    ...rest,
    databaseUrl: database.url,
    onQuery: (sql) => queries.push(sql),
  });
  let url: string;
  try {
    ({ url } = await app.listen({ port: 0, host: '127.0.0.1' }));
  } catch (err) {
    await app.destroy().catch(() => undefined);
    await database.drop();
    throw err;
  }
  const sql = createConnection({ connection: database.url, pool: { min: 0, max: 2 } });
  let token: string | null = null;
  if (as === 'full-access' && app.hasPlugin(usersPermissionsPlugin)) {
    token = (await app.plugin(usersPermissionsPlugin).tokens.create({ name: 'vellum-test', type: 'full-access' })).accessKey;
  }
  return {
    token,
    app,
    url,
    database,
    queries,
    sql,
    async request(method, path, body, headers = {}) {
      const sent: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      for (const [k, v] of Object.entries(headers)) sent[k.toLowerCase()] = v;
      if (sent.authorization === '') delete sent.authorization;
      const init: RequestInit = { method, headers: sent };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, init);
      const text = await res.text();
      let parsed: unknown = text === '' ? null : text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async close() {
      await sql.destroy();
      await app.destroy();
      await database.drop();
    },
  };
}
