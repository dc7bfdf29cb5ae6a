/**
 * Two apps on one database, each with its response cache: a write on one is seen by the other's
 * next reads once PostgreSQL has delivered its NOTIFY (asynchronous: polled, within a bound), and
 * an app whose LISTEN connection dropped forgets what it kept when it reconnects.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVellumApp, type App } from '../../index.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';

/** the test helpers start apps without the cache */
const ON = { RESPONSE_CACHE: 'true' };

let a: TestApp;
let b: App;
let bUrl: string;
/** every statement B ran */
const onBQueries: string[] = [];

async function onB(path: string): Promise<{ status: number; cache: string | null; body: any }> {
  const res = await fetch(bUrl + path, { headers: { authorization: `Bearer ${a.token}` } });
  return { status: res.status, cache: res.headers.get('x-cache'), body: await res.json() };
}

/** Poll B until `done` holds (NOTIFY is asynchronous), at most 2 s; returns the last answer. */
async function pollB(path: string, done: (body: any) => boolean): Promise<any> {
  const until = Date.now() + 2000;
  for (;;) {
    const res = await onB(path);
    if (done(res.body) || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const names = (body: any): string[] => body.data.map((d: { name: string }) => d.name);

beforeAll(async () => {
  a = await startApp({ env: ON });
  b = await createVellumApp({
    appDir: BLOG,
    databaseUrl: a.database.url,
    env: { ...process.env, VELLUM_DEMO_CONTENT: 'false', ...ON },
    logger: pino({ level: 'silent' }),
    onQuery: (statement) => onBQueries.push(statement),
  });
  bUrl = (await b.listen({ port: 0, host: '127.0.0.1' })).url;
});
afterAll(async () => {
  await b?.destroy();
  await a?.close();
});

describe('response cache across instances', () => {
  it("shows a write on A in B's next reads, after B served its cached answer", async () => {
    await a.request('POST', '/api/tags', { data: { name: 'first' } });
    await onB('/api/tags');
    const cached = await onB('/api/tags');
    expect([cached.cache, names(cached.body)]).toEqual(['hit', ['first']]);

    expect((await a.request('POST', '/api/tags', { data: { name: 'second' } })).status).toBe(201);
    const seen = await pollB('/api/tags', (body) => names(body).includes('second'));
    expect(names(seen).sort()).toEqual(['first', 'second']);

    // and the other way round, through a populated type
    const ada = (await a.request('POST', '/api/authors', { data: { name: 'Ada' } })).body.data.documentId;
    await a.request('POST', '/api/articles', { data: { title: 'T', author: ada } });
    const path = '/api/articles?populate=author';
    // B may read the new row before A's NOTIFY reaches it (the entry it keeps then goes with the
    // bump): asked again until it serves the row from memory
    let onBoth = await onB(path);
    for (
      const until = Date.now() + 2000;
      (onBoth.body.data.length !== 1 || onBoth.cache !== 'hit') && Date.now() < until;
    )
      onBoth = await onB(path);
    expect([onBoth.cache, onBoth.body.data.length]).toEqual(['hit', 1]);
    await a.request('GET', path);
    const onA = await a.request('GET', path);
    const put = await fetch(`${bUrl}/api/authors/${ada}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'Lovelace' } }),
    });
    expect(put.status).toBe(200);
    expect([onA.headers.get('x-cache'), onA.body.data[0].author.name]).toEqual(['hit', 'Ada']);
    const seenOnA = async () => (await a.request('GET', path)).body.data[0].author.name as string;
    const until = Date.now() + 2000;
    while ((await seenOnA()) !== 'Lovelace' && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(await seenOnA()).toBe('Lovelace');
  });

  it("keeps B's answer for one document when A writes another, and shows A's write of that document", async () => {
    const make = async (title: string): Promise<string> =>
      (await a.request('POST', '/api/tags', { data: { name: title } })).body.data.documentId;
    const x = await make('kept');
    const y = await make('other');
    const one = `/api/tags/${x}`;
    let res = await onB(one);
    for (const until = Date.now() + 2000; res.cache !== 'hit' && Date.now() < until; ) res = await onB(one);
    expect(res.cache).toBe('hit');
    expect((await a.request('PUT', `/api/tags/${y}`, { data: { name: 'other too' } })).status).toBe(200);
    // B hears of the write (its list shows it), and still serves the other document from memory
    const seen = await pollB('/api/tags', (body) => names(body).includes('other too'));
    expect(names(seen)).toContain('other too');
    expect((await onB(one)).cache).toBe('hit');
    expect((await a.request('PUT', `/api/tags/${x}`, { data: { name: 'kept too' } })).status).toBe(200);
    const after = await pollB(one, (body) => body.data.name === 'kept too');
    expect(after.data.name).toBe('kept too');
  });

  it('refuses on B a token revoked on A once B hears of it, though B had it verified in memory', async () => {
    const api = a.app.plugin(usersPermissionsPlugin);
    const { accessKey, token } = await api.tokens.create({ name: 'revoked-across', type: 'read-only' });
    const status = async (): Promise<number> =>
      (await fetch(`${bUrl}/api/tags`, { headers: { authorization: `Bearer ${accessKey}` } })).status;
    // the first use writes lastUsedAt (a write of tokens); from the next one B looks nothing up
    for (let until = Date.now() + 2000; ; ) {
      onBQueries.length = 0;
      expect(await status()).toBe(200);
      const lookedUp = onBQueries.some((q) => /^SELECT .* from "strapi_api_tokens"/is.test(q));
      if (!lookedUp || Date.now() > until) {
        expect(lookedUp).toBe(false);
        break;
      }
    }
    await api.tokens.revoke(String(token.name));
    let last = await status();
    for (const until = Date.now() + 2000; last !== 401 && Date.now() < until; ) last = await status();
    expect(last).toBe(401);
    expect(await status()).toBe(401);
  });

  it('serves nothing while not listening, and forgets what it kept when the LISTEN connection is back', async () => {
    await onB('/api/tags');
    expect((await onB('/api/tags')).cache).toBe('hit');
    // what the listener does when its connection drops: from then on, nothing is served or kept
    b.generations.suspend();
    for (let i = 0; i < 2; i++) expect((await onB('/api/tags')).cache).toBe('bypass');
    const before = b.generations.resetAt;
    const { rows } = await a.sql.raw(
      `SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity
       WHERE datname = current_database() AND application_name LIKE '%-listen'`,
    );
    expect(rows.length).toBe(2);
    // back: resetAt moves on once more, and the cache was cleared
    const until = Date.now() + 5000;
    while (!(b.generations.live && b.generations.resetAt > before) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(b.generations.live).toBe(true);
    expect((await onB('/api/tags')).cache).toBe('miss');
    expect((await onB('/api/tags')).cache).toBe('hit');
  });
});
