/**
 * Test helpers for Vellum apps (Vellum's own suite uses them too): a real app on a fresh
 * PostgreSQL database, listening on a free port, driven through real HTTP.
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { pino } from 'pino';
import { createVellumApp, type App } from './index.ts';
import type { AppOptions } from './core/kernel/app.ts';
import { createTestDatabase, type TestDatabase } from './database/test-database.ts';
import { createConnection } from './database/connection.ts';
import { usersPermissionsPlugin } from './plugins/users-permissions/index.ts';
import { testAdminUrl } from './testing/admin-url.ts';
import { createTestUser, type TestUser, type TestUserOptions } from './testing/users.ts';

export type { TestUser, TestUserOptions } from './testing/users.ts';

/**
 * A response. `body` is `unknown` unless the caller says what it expects
 * (`t.request<{ data: Article[] }>('GET', '/api/articles')`): the kit does not pretend to know.
 */
export interface TestResponse<T = unknown> {
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
  request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse<T>>;
  close(): Promise<void>;
  /** a new users-permissions user with the role (default `authenticated`), and its JWT */
  createUser(options?: TestUserOptions): Promise<TestUser>;
  /** `createUser(options)`'s JWT: send it as `{ authorization: \`Bearer ${jwt}\` }` */
  userJwt(options?: TestUserOptions): Promise<string>;
}

export interface TestAppOptions extends Partial<Omit<AppOptions, 'databaseUrl' | 'onQuery'>> {
  /** the app folder; defaults to the current one (a project's root, where vitest runs) */
  appDir?: string;
  /**
   * a PostgreSQL URL with the right to create databases: each test app gets its own database there.
   * Defaults to DATABASE_URL, else the server `vellum/testing/setup` started for the vitest run.
   */
  adminUrl?: string;
  /** who `request` is by default: a full-access API token (the default) or nobody (the Public role) */
  as?: 'full-access' | 'public';
}

/** Start an app on a fresh database and a free port. `close()` stops it and drops the database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { adminUrl, as = 'full-access', appDir = process.cwd(), ...rest } = options;
  const database = await createTestDatabase(await testAdminUrl(adminUrl));
  const queries: string[] = [];
  let app: App | undefined;
  let sql: Knex | undefined;
  // whatever fails once the database exists (a bad config, a port, the token), nothing is left
  // behind: no listening app, no pool, no database
  try {
    app = await createVellumApp({
      logger: pino({ level: process.env.VELLUM_TEST_LOG ?? 'silent' }),
      ...rest,
      appDir,
      databaseUrl: database.url,
      onQuery: (statement) => queries.push(statement),
    });
    const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
    sql = createConnection({ connection: database.url, pool: { min: 0, max: 2 } });
    const token =
      as === 'full-access' && app.hasPlugin(usersPermissionsPlugin)
        ? (await app.plugin(usersPermissionsPlugin).tokens.create({ name: 'vellum-test', type: 'full-access' }))
            .accessKey
        : null;
    return testAppHandle({ app, url, token, database, queries, sql });
  } catch (err) {
    await sql?.destroy().catch(() => undefined);
    await app?.destroy().catch(() => undefined);
    await database.drop();
    throw err;
  }
}

/** `request` and `close` over a started app and its resources. */
function testAppHandle(parts: Omit<TestApp, 'request' | 'close' | 'createUser' | 'userJwt'>): TestApp {
  const { app, url, token, database, sql } = parts;
  return {
    ...parts,
    createUser: (userOptions) => createTestUser(app, userOptions),
    userJwt: async (userOptions) => (await createTestUser(app, userOptions)).jwt,
    async request(method, path, body, headers = {}) {
      const sent: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      for (const [k, v] of Object.entries(headers)) sent[k.toLowerCase()] = v;
      if (sent.authorization === '') delete sent.authorization;
      const init: RequestInit = { method, headers: sent };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        sent['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, init);
      const text = await res.text();
      let parsed: unknown = text === '' ? null : text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed as never, text };
    },
    async close() {
      await sql.destroy();
      await app.destroy();
      await database.drop();
    },
  };
}

/**
 * A private copy of an app folder, without its embedded database (`.data/`) or its uploads
 * (`public/`), in a new temp folder; the caller removes it. For tests that write files (upload
 * flows write to the app's public/uploads) and must leave the original, the repository's
 * example say, untouched. The bench serves its copy of examples/blog the same way.
 */
export async function copyApp(src: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vellum-app-'));
  const skip = new Set([join(src, '.data'), join(src, 'public')]);
  await cp(src, dir, { recursive: true, filter: (from) => !skip.has(from) });
  return dir;
}
