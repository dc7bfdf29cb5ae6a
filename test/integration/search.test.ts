import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import type { TestApp } from '../helpers/app.ts';
import { createVellumApp } from '../../index.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { createTestDatabase } from '../../database/test-database.ts';
import { createConnection } from '../../database/connection.ts';
import { searchCondition } from '../../core/query/search.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

/**
 * `_q` on REST lists. Every expected answer here is what Strapi 5.54 answered to the same
 * request on the same content (a reference Strapi with the blog and an `event` type like the
 * one below), except where a comment says Vellum differs.
 */
const event = {
  kind: 'collectionType',
  collectionName: 'events',
  info: { singularName: 'event', pluralName: 'events' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    note: { type: 'richtext' },
    code: { type: 'uid' },
    mail: { type: 'email' },
    kind: { type: 'enumeration', enum: ['talk', 'workshop'] },
    secret: { type: 'string', private: true },
    hidden: { type: 'string', searchable: false },
    count: { type: 'biginteger' },
    score: { type: 'float' },
    meta: { type: 'json' },
    startsAt: { type: 'datetime' },
  },
};

/** The search indexes of the events table (`??`: the column of pg_indexes to answer). */
const SEARCH_INDEXES = `SELECT ?? FROM pg_indexes WHERE tablename = 'events' AND indexname LIKE '%\\_search'`;

let blog: TestApp;
let events: TestApp;
const article: Record<string, { id: number; documentId: string }> = {};

const names = async (t: TestApp, path: string, field = 'name'): Promise<string[]> => {
  const res = await t.request('GET', path);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((d: Record<string, string>) => d[field]);
};

beforeAll(async () => {
  const eventsApp = writeApp({ contentTypes: { event } }).then((appDir) => startApp({ appDir }));
  [blog, events] = await Promise.all([startApp(), eventsApp]);
  for (const name of ['javascript', 'typescript', 'node', '100%', 'a*b', 'back\\slash']) {
    expect((await blog.request('POST', '/api/tags', { data: { name } })).status).toBe(201);
  }
  const posts: Array<[string, Record<string, unknown>]> = [
    // no "en" in any of its strings: only its locale holds it
    [
      'zzqq',
      {
        slug: 'zzqq',
        views: 91357,
        rating: 4.25,
        price: 3.5,
        meta: { k: 'zebra' },
        body: [{ type: 'paragraph', children: [{ type: 'text', text: 'paragraph' }] }],
      },
    ],
    [
      'Postgres tuning',
      {
        summary: 'Indexes and VACUUM',
        views: 10,
        contactEmail: 'ops@example.com',
        category: 'tutorial',
      },
    ],
    ['Node streams', { summary: 'Backpressure in POSTGRES drivers', views: 20, category: 'news' }],
    [
      'Opinion piece',
      {
        summary: 'nothing to see',
        views: 30,
        category: 'opinion',
        internalNotes: 'postgres is hidden here',
      },
    ],
  ];
  for (const [title, data] of posts) {
    const res = await blog.request('POST', '/api/articles', { data: { title, ...data } });
    expect(res.status, res.text).toBe(201);
    article[title] = res.body.data;
  }
  const frPath = `/api/articles/${article['Node streams'].documentId}?locale=fr`;
  const fr = await blog.request('PUT', frPath, { data: { title: 'Flux Node (fr)' } });
  expect(fr.status, fr.text).toBe(200);
  const draft = await blog.request('POST', '/api/articles?status=draft', { data: { title: 'Postgres draft' } });
  expect(draft.status).toBe(201);

  const rows = [
    {
      name: 'qq',
      note: '**Bold** richy',
      code: 'uid-kappa',
      secret: 'pssst',
      hidden: 'unseen',
      count: '987654321',
      score: 2.5,
    },
    { name: 'Talk', kind: 'talk', mail: 'speaker@conf.io', meta: { about: 'zebra' }, startsAt: '2024-05-06T07:08:09Z' },
  ];
  for (const data of rows) expect((await events.request('POST', '/api/events', { data })).status).toBe(201);
});
afterAll(async () => {
  await Promise.all([blog?.close(), events?.close()]);
});

describe('what _q matches', () => {
  it('a case-insensitive substring of a string attribute', async () => {
    expect(await names(blog, '/api/tags?_q=typescr')).toEqual(['typescript']);
    expect(await names(blog, '/api/tags?_q=TYPESCR')).toEqual(['typescript']);
    expect(await names(blog, '/api/tags?_q=script')).toEqual(['javascript', 'typescript']);
    expect(await names(blog, '/api/tags?_q=nothing-like-it')).toEqual([]);
  });

  it('every string type (string, text, richtext, uid, email, enumeration), but not json, blocks or dates', async () => {
    expect(await names(events, '/api/events?_q=richy')).toEqual(['qq']);
    expect(await names(events, '/api/events?_q=kappa')).toEqual(['qq']);
    expect(await names(events, '/api/events?_q=SPEAKER@')).toEqual(['Talk']);
    expect(await names(events, '/api/events?_q=worksh')).toEqual([]);
    expect(await names(events, '/api/events?_q=talk')).toEqual(['Talk']);
    expect(await names(events, '/api/events?_q=zebra')).toEqual([]);
    expect(await names(events, '/api/events?_q=2024-05')).toEqual([]);
    expect(await names(blog, '/api/articles?_q=paragraph', 'title')).toEqual([]);
    expect(await names(blog, '/api/articles?_q=zebra', 'title')).toEqual([]);
  });

  it('numbers only when the query is a number', async () => {
    expect(await names(blog, '/api/articles?_q=135', 'title')).toEqual(['zzqq']);
    expect(await names(blog, '/api/articles?_q=4.2', 'title')).toEqual(['zzqq']);
    expect(await names(blog, '/api/articles?_q=.5', 'title')).toEqual(['zzqq']);
    expect(await names(events, '/api/events?_q=76543')).toEqual(['qq']);
    expect(await names(events, '/api/events?_q=2.5')).toEqual(['qq']);
    // "1357x" is no number: views are not read, and no string holds it
    expect(await names(blog, '/api/articles?_q=1357x', 'title')).toEqual([]);
  });

  it('the documentId, the id as text and the locale', async () => {
    const { documentId } = article['Postgres tuning'];
    expect(await names(blog, `/api/articles?_q=${documentId.slice(3, 15)}`, 'title')).toEqual(['Postgres tuning']);
    // documentIds without digits, so only an id can hold one
    const tags = await blog.sql('tags').select('id', 'data').orderBy('id');
    for (const [i, tag] of tags.entries()) {
      await blog
        .sql('tags')
        .where('id', tag.id)
        .update({ document_id: `tag${'abcdef'[i]}`.padEnd(24, 'x') });
    }
    // the third tag of a fresh database: id 3, which no other tag's id or name holds
    const node = tags.find((tag) => tag.data.name === 'node')!;
    expect(node.id).toBe(3);
    expect(await names(blog, '/api/tags?_q=3')).toEqual(['node']);
    // every English article holds "en" in its locale
    const english = ['Node streams', 'Opinion piece', 'Postgres tuning', 'zzqq'];
    expect((await names(blog, '/api/articles?_q=en', 'title')).sort()).toEqual(english);
  });

  it('% * and \\ literally, _ as any one character', async () => {
    expect(await names(blog, `/api/tags?_q=${encodeURIComponent('%')}`)).toEqual(['100%']);
    expect(await names(blog, `/api/tags?_q=${encodeURIComponent('a*b')}`)).toEqual(['a*b']);
    expect(await names(blog, `/api/tags?_q=${encodeURIComponent('k\\s')}`)).toEqual(['back\\slash']);
    expect(await names(blog, '/api/tags?_q=n_de')).toEqual(['node']);
  });

  it('an empty _q is no search; anything but a string is a 400 (Strapi: a 500)', async () => {
    expect(await names(blog, '/api/tags?_q=&sort=name')).toHaveLength(6);
    for (const q of ['_q[0]=a', '_q[a]=a']) {
      const res = await blog.request('GET', `/api/tags?${q}`);
      expect(res.status, q).toBe(400);
      const details = { key: '_q', source: 'query', param: '_q' };
      expect(res.body.error).toMatchObject({ name: 'ValidationError', details });
    }
  });

  it('never private attributes (Strapi 5.54 searches them), nor searchable: false ones', async () => {
    expect(await names(events, '/api/events?_q=pssst')).toEqual([]);
    expect(await names(events, '/api/events?_q=unseen')).toEqual([]);
    expect(await names(blog, '/api/articles?_q=hidden%20here', 'title')).toEqual([]);
  });
});

describe('_q with the rest of the query', () => {
  it("in the read's locale and status only", async () => {
    const published = await names(blog, '/api/articles?_q=postgres', 'title');
    expect(published.sort()).toEqual(['Node streams', 'Postgres tuning']);
    const drafts = await names(blog, '/api/articles?_q=postgres&status=draft&sort=title', 'title');
    expect(drafts).toEqual(['Node streams', 'Postgres draft', 'Postgres tuning']);
    expect(await names(blog, '/api/articles?_q=flux&locale=fr', 'title')).toEqual(['Flux Node (fr)']);
    expect(await names(blog, '/api/articles?_q=flux', 'title')).toEqual([]);
  });

  it('with filters, sort and pagination, in one statement', async () => {
    blog.queries.length = 0;
    const query = '_q=e&filters[views][$lte]=50&sort=views:desc&pagination[pageSize]=2&populate=author';
    const res = await blog.request('GET', `/api/articles?${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((d: { title: string }) => d.title)).toEqual(['Opinion piece', 'Node streams']);
    expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    const reads = blog.queries.filter((q) => /from "articles"/i.test(q));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/ILIKE/);
  });

  it('a one-document read that _q does not match is a 404, and writes ignore it, as in Strapi', async () => {
    const { documentId } = article['Postgres tuning'];
    expect((await blog.request('GET', `/api/articles/${documentId}?_q=zzzz`)).status).toBe(404);
    expect((await blog.request('GET', `/api/articles/${documentId}?_q=tuning`)).status).toBe(200);
    const put = await blog.request('PUT', `/api/articles/${documentId}?_q=zzzz`, { data: { views: 11 } });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.views).toBe(11);
    const post = await blog.request('POST', '/api/tags?_q=zzzz', { data: { name: 'fresh' } });
    expect(post.status, post.text).toBe(201);
  });
});

describe('the search index', () => {
  it('is a trigram GIN index over the searched columns, which the condition uses on 100k documents', async () => {
    const indexes = await events.sql.raw(SEARCH_INDEXES, ['indexdef']);
    expect(indexes.rows).toHaveLength(1);
    expect(indexes.rows[0].indexdef).toMatch(/USING gin .*gin_trgm_ops/);
    await events.sql.raw(`
      INSERT INTO events (document_id, published_at, data)
      SELECT 'doc' || g, now(), jsonb_build_object('name', 'event number ' || g, 'note', md5(g::text), 'count', g::text)
      FROM generate_series(1, 100000) g`);
    await events.sql.raw('ANALYZE events');
    const ct = events.app.registry.contentType('api::event.event');
    const cond = searchCondition(ct, 'r0', 'number 4242');
    const plan = await events.sql.raw(`EXPLAIN SELECT r0.id FROM events r0 WHERE ${cond.sql}`, cond.bindings);
    const lines = plan.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']);
    expect(lines.join('\n')).toMatch(/Bitmap Index Scan on events_\w+_search/);
    const res = await events.request('GET', '/api/events?_q=number%2042424&fields[0]=name');
    expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(['event number 42424']);
    expect(res.body.meta.pagination.total).toBe(1);
    // a bulk insert of 100k rows (with its count triggers) and an ANALYZE, on a busy machine
  }, 90_000);
});

describe('without pg_trgm', () => {
  it('starts with a warning and searches without an index', async () => {
    const database = await createTestDatabase(inject('databaseAdminUrl'));
    // a function pg_trgm would create makes CREATE EXTENSION fail, as a missing contrib package would
    const setup = createConnection({ connection: database.url, pool: { min: 0, max: 1 } });
    await setup.raw(`CREATE FUNCTION similarity(text, text) RETURNS real LANGUAGE sql AS 'SELECT 0::real'`);
    await setup.destroy();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const appDir = await writeApp({ contentTypes: { event } });
    const logger = pino({ level: 'warn' }, sink);
    const app = await createVellumApp({ appDir, env: {}, databaseUrl: database.url, logger });
    try {
      const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
      expect(lines.join('')).toMatch(/pg_trgm/);
      const tokens = app.plugin(usersPermissionsPlugin).tokens;
      const { accessKey } = await tokens.create({ name: 'search', type: 'full-access' });
      const headers = { authorization: `Bearer ${accessKey}`, 'content-type': 'application/json' };
      const body = JSON.stringify({ data: { name: 'Lone talk' } });
      const post = await fetch(`${url}/api/events`, { method: 'POST', headers, body });
      expect(post.status).toBe(201);
      const res = await fetch(`${url}/api/events?_q=LONE`, { headers });
      expect((await res.json()).data.map((d: { name: string }) => d.name)).toEqual(['Lone talk']);
      const check = createConnection({ connection: database.url, pool: { min: 0, max: 1 } });
      const indexes = await check.raw(SEARCH_INDEXES, ['indexname']);
      await check.destroy();
      expect(indexes.rows).toEqual([]);
    } finally {
      await app.destroy();
      await database.drop();
    }
  });
});
