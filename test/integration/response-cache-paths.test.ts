/**
 * The response cache and the write paths beyond REST and GraphQL (uploads, linking a file, i18n's
 * copies across locales), a write racing a read, the memory bound, and the switch that turns it off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyApp } from '../../testing.ts';
import { BLOG, startApp, type TestApp, type TestResponse } from '../helpers/app.ts';

/** the test helpers start apps without the cache */
const ON = { RESPONSE_CACHE: 'true' };

let t: TestApp;
let appDir: string;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function cached(app: TestApp, path: string): Promise<TestResponse> {
  const first = await app.request('GET', path);
  expect(first.status, first.text).toBe(200);
  const second = await app.request('GET', path);
  expect(second.headers.get('x-cache'), path).toBe('hit');
  return second;
}

async function upload(fields: Array<[string, string]>, query = ''): Promise<{ status: number; body: any }> {
  const fd = new FormData();
  fd.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
  for (const [k, v] of fields) fd.append(k, v);
  const res = await fetch(`${t.url}/api/upload${query}`, {
    method: 'POST',
    body: fd,
    headers: { authorization: `Bearer ${t.token}` },
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  appDir = await copyApp(BLOG);
  t = await startApp({ appDir, env: ON });
});
afterAll(async () => {
  await t?.close();
});

describe('response cache: uploads and i18n', () => {
  it('shows an upload, a link to an article, and a file updated or deleted in the very next read', async () => {
    const files = '/api/upload/files';
    expect((await cached(t, files)).body).toEqual([]);
    const first = await upload([]);
    expect(first.status).toBe(201);
    expect((await t.request('GET', files)).body.map((f: { id: number }) => f.id)).toEqual([first.body[0].id]);

    const article = (await t.request('POST', '/api/articles', { data: { title: 'With media' } })).body.data;
    const path = `/api/articles/${article.documentId}?populate=gallery`;
    const gallery = (res: TestResponse): number[] => (res.body.data.gallery ?? []).map((f: { id: number }) => f.id);
    expect(gallery(await cached(t, path))).toEqual([]);
    const linked = await upload([
      ['ref', 'api::article.article'],
      ['refId', article.documentId],
      ['field', 'gallery'],
    ]);
    expect(linked.status).toBe(201);
    const withFile = await t.request('GET', path);
    expect(gallery(withFile)).toEqual([linked.body[0].id]);

    await cached(t, path);
    const id = linked.body[0].id;
    const fd = new FormData();
    fd.append('fileInfo', JSON.stringify({ alternativeText: 'a dot' }));
    const info = await fetch(`${t.url}/api/upload?id=${id}`, {
      method: 'POST',
      body: fd,
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(info.status).toBe(200);
    expect((await t.request('GET', path)).body.data.gallery[0].alternativeText).toBe('a dot');

    await cached(t, path);
    await cached(t, `${files}/${id}`);
    expect((await t.request('DELETE', `${files}/${id}`)).status).toBe(200);
    expect(gallery(await t.request('GET', path))).toEqual([]);
    expect((await t.request('GET', `${files}/${id}`)).status).toBe(404);
  });

  it("shows a write in one locale that copies non-localized fields into another's next read", async () => {
    const en = (await t.request('POST', '/api/articles', { data: { title: 'Hello', views: 1 } })).body.data;
    const fr = await t.request('PUT', `/api/articles/${en.documentId}?locale=fr`, { data: { title: 'Bonjour' } });
    expect(fr.status, fr.text).toBe(200);
    const path = `/api/articles/${en.documentId}?locale=fr`;
    expect((await cached(t, path)).body.data).toMatchObject({ title: 'Bonjour', views: 1 });
    await t.request('PUT', `/api/articles/${en.documentId}`, { data: { views: 7 } });
    expect((await t.request('GET', path)).body.data).toMatchObject({ title: 'Bonjour', views: 7 });
  });
});

describe('response cache: a write racing a read', () => {
  it('does not keep what a read got when a type it depends on was written while it ran', async () => {
    const ada = (await t.request('POST', '/api/authors', { data: { name: 'Racer' } })).body.data.documentId;
    await t.request('POST', '/api/articles', { data: { title: 'Raced', author: ada } });
    const path = '/api/articles?populate=author&filters[title][$eq]=Raced';
    await cached(t, path);
    await t.request('PUT', `/api/authors/${ada}`, { data: { name: 'Racer 2' } });
    // the read waits for the lock the test holds on the articles table; the author write commits meanwhile
    const trx = await t.sql.transaction();
    await trx.raw('LOCK TABLE articles IN ACCESS EXCLUSIVE MODE');
    const slow = t.request('GET', path);
    await new Promise((r) => setTimeout(r, 200));
    await t.app.documents('api::author.author').update({ documentId: ada, data: { name: 'Racer 3' } });
    await trx.commit();
    const raced = await slow;
    expect(raced.status).toBe(200);
    expect(raced.headers.get('x-cache')).toBe('bypass');
    const next = await t.request('GET', path);
    expect([next.headers.get('x-cache'), next.body.data[0].author.name]).toEqual(['miss', 'Racer 3']);
  });
});

describe('response cache: memory and the switch', () => {
  it('evicts the least recently used answers past maxBytes, and keeps none larger than its share', async () => {
    const small = await startApp({ env: ON, config: { server: { responseCache: { maxBytes: 16 * 1024 } } } });
    try {
      for (let i = 0; i < 3; i++) await small.request('POST', '/api/tags', { data: { name: `tag ${i}` } });
      const path = (i: number) => `/api/tags?fields[0]=name&n=${i}`;
      await cached(small, path(0));
      for (let i = 1; i < 40; i++) await small.request('GET', path(i));
      expect((await small.request('GET', path(39))).headers.get('x-cache')).toBe('hit');
      // the first was pushed out by the others
      expect((await small.request('GET', path(0))).headers.get('x-cache')).toBe('miss');
      const long = 'x'.repeat(190);
      for (let i = 0; i < 20; i++) await small.request('POST', '/api/tags', { data: { name: `${long} ${i}` } });
      const big = await small.request('GET', '/api/tags?pagination[pageSize]=100');
      expect(big.text.length).toBeGreaterThan((16 * 1024) / 8);
      const again = await small.request('GET', '/api/tags?pagination[pageSize]=100');
      expect(again.headers.get('x-cache')).toBe('bypass');
    } finally {
      await small.close();
    }
  });

  it('never serves from memory when turned off (RESPONSE_CACHE=false for the blog)', async () => {
    const off = await startApp({ env: { RESPONSE_CACHE: 'false' } });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await off.request('GET', '/api/tags');
        expect(res.status).toBe(200);
        expect(res.headers.get('x-cache')).toBeNull();
        expect(res.headers.get('etag')).toBeNull();
      }
      // its writes still bump the generations other instances listen to
      await off.request('POST', '/api/tags', { data: { name: 'off' } });
      expect((await off.sql('vellum_generations').where({ key: 'api::tag.tag' }).first())?.generation).toBeTruthy();
    } finally {
      await off.close();
    }
  });
});
