/**
 * Reads kept by shape (core/documents/read-statements.ts): a read is built once per shape (its
 * filters' values included) and later reads of that shape put their own document id in. Through
 * HTTP: app A answers a shape for one document, then for another; app B, on the same database with
 * nothing kept, answers the second first. Every answer must be byte-equal to B's.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVellumApp, type App } from '../../index.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';

let a: TestApp;
let b: App;
let bUrl: string;

async function text(base: string, path: string): Promise<{ status: number; body: string }> {
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${a.token}` } });
  return { status: res.status, body: await res.text() };
}

beforeAll(async () => {
  a = await startApp();
  b = await createVellumApp({
    appDir: BLOG,
    databaseUrl: a.database.url,
    env: { ...process.env, VELLUM_DEMO_CONTENT: 'false', RESPONSE_CACHE: 'false' },
    logger: pino({ level: 'silent' }),
  });
  bUrl = (await b.listen({ port: 0, host: '127.0.0.1' })).url;
});
afterAll(async () => {
  await b?.destroy();
  await a?.close();
});

/** Two published articles with an author, tags and components, a fr version and a changed draft each. */
async function seed(): Promise<string[]> {
  const ids: string[] = [];
  for (const n of [1, 2]) {
    const author = (await a.request('POST', '/api/authors', { data: { name: `Writer ${n}` } })).body.data;
    const tag = (await a.request('POST', '/api/tags', { data: { name: `tag ${n}` } })).body.data;
    const created = await a.request('POST', '/api/articles', {
      data: {
        title: `Shape ${n}`,
        slug: `shape-${n}`,
        views: n * 10,
        author: author.documentId,
        tags: [tag.documentId],
        seo: { metaTitle: `Seo ${n}`, keywords: [{ value: `k${n}` }] },
        blocks: [{ __component: 'shared.rich-text', body: `Rich ${n}` }],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.documentId as string;
    const fr = await a.request('PUT', `/api/articles/${id}?locale=fr`, { data: { title: `Forme ${n}` } });
    expect(fr.status).toBe(200);
    const draft = await a.request('PUT', `/api/articles/${id}?status=draft`, { data: { title: `Draft ${n}` } });
    expect(draft.status).toBe(200);
    ids.push(id);
  }
  return ids;
}

describe('reads kept by shape', () => {
  it('answer each document as a fresh app does, whichever document a shape was first read for', async () => {
    const [first, second] = await seed();
    const shapes = [
      (id: string) => `/api/articles/${id}`,
      (id: string) => `/api/articles/${id}?populate=*`,
      (id: string) => `/api/articles/${id}?fields[0]=title&populate[author][fields][0]=name&populate[seo]=*`,
      (id: string) => `/api/articles/${id}?locale=fr&populate=*`,
      (id: string) => `/api/articles/${id}?status=draft&populate[tags]=true`,
      (id: string) => `/api/articles/${id}?locale=fr&status=draft`,
    ];
    for (const shape of shapes) {
      const onA = [await text(a.url, shape(first)), await text(a.url, shape(second))];
      const onB = [await text(bUrl, shape(second)), await text(bUrl, shape(first))];
      expect(onA[0].status).toBe(200);
      expect(onA[1]).toEqual(onB[0]);
      expect(onA[0]).toEqual(onB[1]);
      expect(JSON.parse(onA[1].body).data.documentId).toBe(second);
    }
    // a list's pages: the second page after the first, as read first elsewhere
    const page = (n: number) => `/api/articles?sort=title:asc&pagination[pageSize]=1&pagination[page]=${n}&populate=*`;
    const pages = [await text(a.url, page(1)), await text(a.url, page(2))];
    expect(pages[1]).toEqual(await text(bUrl, page(2)));
    expect(JSON.parse(pages[1].body).data.map((d: { title: string }) => d.title)).toEqual(['Shape 2']);
  });

  it('a document that is not there is a 404 in a kept shape too', async () => {
    const path = (id: string) => `/api/articles/${id}?populate[author]=true`;
    const [id] = (await a.request('GET', '/api/articles?sort=title:asc')).body.data.map(
      (d: { documentId: string }) => d.documentId,
    );
    expect((await text(a.url, path(id))).status).toBe(200);
    const missing = await text(a.url, path('doesnotexist0000000000000'));
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toMatchObject({ data: null, error: { status: 404, name: 'NotFoundError' } });
  });

  it('a filtered list kept by its values answers what the rows hold now, total included', async () => {
    const lists = [
      '/api/articles?filters[views][$gte]=15&sort=title:asc',
      '/api/articles?filters[views][$gte]=5&sort=title:asc&pagination[pageSize]=1',
      '/api/articles?filters[views][$in][0]=10&filters[views][$in][1]=20&sort=title:asc',
      '/api/articles?filters[tags][name][$eq]=tag%201&sort=title:asc&populate=*',
      '/api/articles?filters[$or][0][title][$eq]=Shape%201&filters[$or][1][slug][$eq]=shape-2&sort=title:asc',
    ];
    const titles = (body: string) => JSON.parse(body).data.map((d: { title: string }) => d.title);
    const before = [];
    for (const path of lists) before.push(await text(a.url, path));
    expect(titles(before[0].body)).toEqual(['Shape 2']);
    expect(JSON.parse(before[1].body).meta.pagination.total).toBe(2);
    // the rows change under the kept statements: Shape 1 passes the first filter, leaves the third
    // (and its draft, titled Draft 1, is what gets published)
    const [one] = JSON.parse(before[4].body).data.map((d: { documentId: string }) => d.documentId);
    expect((await a.request('PUT', `/api/articles/${one}`, { data: { views: 16 } })).status).toBe(200);
    for (const path of lists) {
      const res = await fetch(a.url + path, { headers: { authorization: `Bearer ${a.token}` } });
      // answered by a statement kept from the first round, not by the response cache
      expect(res.headers.get('x-cache')).not.toBe('hit');
      expect({ status: res.status, body: await res.text() }).toEqual(await text(bUrl, path));
    }
    expect(titles((await text(a.url, lists[0])).body)).toEqual(['Draft 1', 'Shape 2']);
    expect(titles((await text(a.url, lists[2])).body)).toEqual(['Shape 2']);
    // and a value not read before is another statement, not the kept one's answer
    expect(titles((await text(a.url, '/api/articles?filters[views][$gte]=17&sort=title:asc')).body)).toEqual([
      'Shape 2',
    ]);
  });
});
