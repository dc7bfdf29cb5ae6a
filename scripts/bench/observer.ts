/**
 * A second, in-process instance of the Vellum under test, opened once the child serves, on the
 * same app folder and database. It does the two things the bench needs from inside an app:
 *
 * - the seeding token. Seeding writes through the REST API, and writes need credentials: a
 *   full-access API token, made by the token service itself on the child's table (the tables
 *   and the salt exist once the child has started). Only the seeding sends it; the measured
 *   workloads stay public, as a frontend's requests are.
 * - SQL statements per request, per workload: the design promises a small fixed number whatever
 *   the page size (DESIGN.md, "Query engine"), and it is the first thing to look at when a
 *   workload is slow. The measured child runs quietly; here every statement is observed.
 *
 * One instance for both, because booting an app costs about a second each time.
 */
import { pino } from 'pino';
import { createVellumApp } from '../../index.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import type { Cleanup } from './cleanup.ts';

export interface Observer {
  /** a new full-access API token's key, valid on the child as well */
  createToken(name: string): Promise<string>;
  /**
   * statements one request of each path (a POST when it has a JSON body) costs, after one
   * unmeasured request, or null when it failed
   */
  countStatements(requests: Array<{ path: string; body?: string }>): Promise<Array<number | null>>;
}

/** Start the observer on `appDir` and `databaseUrl`; `cleanup` stops it. */
export async function openObserver(appDir: string, databaseUrl: string, cleanup: Cleanup): Promise<Observer> {
  let count = 0;
  const app = await createVellumApp({
    appDir,
    databaseUrl,
    // the environment the child inherited: with a configured API_TOKEN_SALT, keys made here must
    // hash as the child hashes them; no response cache, or a repeated request would cost no statement
    env: { ...process.env, VELLUM_DEMO_CONTENT: 'false', RESPONSE_CACHE: 'false' },
    logger: pino({ level: 'silent' }),
    onQuery: () => void count++,
  });
  cleanup.add('stop the observing Vellum', () => app.destroy());
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    async createToken(name) {
      return (await app.plugin(usersPermissionsPlugin).tokens.create({ name, type: 'full-access' })).accessKey;
    },
    async countStatements(requests) {
      const out: Array<number | null> = [];
      for (const { path, body } of requests) {
        const init: RequestInit = body
          ? { method: 'POST', body, headers: { 'content-type': 'application/json' } }
          : { method: 'GET' };
        await fetch(url + path, init).then((r) => r.arrayBuffer()); // first use of a path may prepare things once
        count = 0;
        const res = await fetch(url + path, init);
        await res.arrayBuffer();
        out.push(res.ok ? count : null);
      }
      return out;
    },
  };
}
