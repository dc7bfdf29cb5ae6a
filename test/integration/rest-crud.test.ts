import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { ROW_COLUMNS } from '../../core/query/sql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const count = async (table: string): Promise<number> => Number((await t.sql(table).count({ n: '*' }).first())!.n);

describe('collection types', () => {
  it('lists with the {data, meta.pagination} envelope', async () => {
    const res = await t.request('GET', '/api/tags');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('creates (201), reads, updates and deletes (204, empty body) a document', async () => {
    const created = await t.request('POST', '/api/tags', { data: { name: 'crud' } });
    expect(created.status).toBe(201);
    expect(created.body.meta).toEqual({});
    const doc = created.body.data;
    expect(Object.keys(doc)).toEqual(['id', 'documentId', 'name', 'createdAt', 'updatedAt', 'publishedAt']);
    expect(doc.publishedAt).not.toBeNull(); // no draft & publish: always published

    const one = await t.request('GET', `/api/tags/${doc.documentId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: doc, meta: {} });

    const updated = await t.request('PUT', `/api/tags/${doc.documentId}`, { data: { name: 'crud-2' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: doc.id, documentId: doc.documentId, name: 'crud-2' });

    const list = await t.request('GET', '/api/tags');
    expect(list.body.data.map((d: { name: string }) => d.name)).toContain('crud-2');

    const deleted = await t.request('DELETE', `/api/tags/${doc.documentId}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.request('GET', `/api/tags/${doc.documentId}`)).status).toBe(404);
    expect(await t.sql('tags').where('document_id', doc.documentId).first()).toBeUndefined();
  });

  it('answers 404 NotFoundError for a missing document on GET, PUT and DELETE', async () => {
    const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await t.request(
        method,
        '/api/tags/doesnotexist0000000000000',
        method === 'PUT' ? { data: { name: 'x' } } : undefined,
      );
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
  });

  it('paginates lists with page/pageSize and start/limit', async () => {
    for (let i = 0; i < 7; i++) await t.request('POST', '/api/authors', { data: { name: `Page author ${i}` } });
    const page = await t.request('GET', '/api/authors?pagination[page]=2&pagination[pageSize]=3');
    expect(page.body.meta.pagination).toEqual({ page: 2, pageSize: 3, pageCount: 3, total: 7 });
    expect(page.body.data.map((a: { name: string }) => a.name)).toEqual([
      'Page author 3',
      'Page author 4',
      'Page author 5',
    ]);
    const offset = await t.request('GET', '/api/authors?pagination[start]=5&pagination[limit]=10');
    expect(offset.body.meta.pagination).toEqual({ start: 5, limit: 10, total: 7 });
    expect(offset.body.data).toHaveLength(2);
    const clamped = await t.request('GET', '/api/authors?pagination[pageSize]=1000');
    expect(clamped.body.meta.pagination.pageSize).toBe(100);
    const mixed = await t.request('GET', '/api/authors?pagination[page]=1&pagination[limit]=2');
    expect(mixed.status).toBe(400);
    expect(mixed.body.error).toMatchObject({
      name: 'PaginationError',
      message: 'Cannot use both page & offset pagination in the same query',
    });
    const bad = await t.request('GET', '/api/authors?pagination[page]=x');
    expect(bad.status).toBe(400);
  });

  it('serves out-of-range pages and sizes as Strapi 5.54 does: page 1, size 1, start 0', async () => {
    const names = (res: { body: { data: Array<{ name: string }> } }): string[] => res.body.data.map((a) => a.name);
    const all = await t.request('GET', '/api/authors?sort=id&pagination[pageSize]=100');
    const first = names(all).slice(0, 3);
    const cases: Array<[string, Record<string, number>, string[]]> = [
      ['pagination[page]=0&pagination[pageSize]=2', { page: 1, pageSize: 2 }, first.slice(0, 2)],
      ['pagination[page]=-3&pagination[pageSize]=2', { page: 1, pageSize: 2 }, first.slice(0, 2)],
      ['pagination[page]=2&pagination[pageSize]=0', { page: 2, pageSize: 1 }, first.slice(1, 2)],
      ['pagination[page]=2&pagination[pageSize]=-5', { page: 2, pageSize: 1 }, first.slice(1, 2)],
      ['pagination[pageSize]=-1', { page: 1, pageSize: 1 }, first.slice(0, 1)],
      ['pagination[start]=-5&pagination[limit]=2', { start: 0, limit: 2 }, first.slice(0, 2)],
      ['pagination[start]=2&pagination[limit]=0', { start: 2, limit: 1 }, first.slice(2, 3)],
      ['pagination[start]=2&pagination[limit]=-2', { start: 2, limit: 1 }, first.slice(2, 3)],
    ];
    for (const [query, meta, expected] of cases) {
      const res = await t.request('GET', `/api/authors?sort=id&${query}`);
      expect(res.status, query).toBe(200);
      expect(res.body.meta.pagination, query).toMatchObject(meta);
      expect(names(res), query).toEqual(expected);
    }
    const noCount = await t.request(
      'GET',
      '/api/authors?pagination[page]=0&pagination[pageSize]=1&pagination[withCount]=false',
    );
    expect(noCount.body.meta.pagination).toEqual({ page: 1, pageSize: 1 });
  });

  it('populates relations with populate=* and populate[0]=field, one level', async () => {
    const author = (await t.request('POST', '/api/authors', { data: { name: 'Pop', address: { city: 'Lyon' } } })).body
      .data;
    const tag = (await t.request('POST', '/api/tags', { data: { name: 'pop-tag' } })).body.data;
    const article = (
      await t.request('POST', '/api/articles', {
        data: { title: 'Pop', author: author.documentId, tags: [tag.documentId] },
      })
    ).body.data;
    const plain = await t.request('GET', `/api/articles/${article.documentId}`);
    for (const key of ['author', 'tags', 'cover', 'gallery', 'seo', 'blocks'])
      expect(plain.body.data).not.toHaveProperty(key);
    const star = await t.request('GET', `/api/articles/${article.documentId}?populate=*`);
    expect(star.body.data).toMatchObject({
      author: { documentId: author.documentId, name: 'Pop' },
      tags: [{ documentId: tag.documentId }],
      cover: null,
      gallery: [],
      seo: null,
      blocks: [],
    });
    // one level: the author's own relations and components are not included
    expect(star.body.data.author).not.toHaveProperty('address');
    const one = await t.request('GET', `/api/articles/${article.documentId}?populate[0]=author`);
    expect(Object.keys(one.body.data)).toContain('author');
    expect(one.body.data).not.toHaveProperty('tags');
    const inverse = await t.request('GET', `/api/authors/${author.documentId}?populate[0]=articles`);
    expect(inverse.body.data.articles.map((a: { documentId: string }) => a.documentId)).toEqual([article.documentId]);
    const bad = await t.request('GET', '/api/articles?populate[0]=title');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      name: 'ValidationError',
      message: 'Invalid key title',
      details: { key: 'title', source: 'query', param: 'populate' },
    });
  });

  it('stores media attributes as file ids and populates them with the media shape', async () => {
    const file = await t.app.documents('plugin::upload.file').create({
      data: {
        name: 'a.png',
        hash: 'a_123',
        ext: '.png',
        mime: 'image/png',
        size: 1.5,
        url: '/uploads/a_123.png',
        provider: 'local',
        width: 10,
        height: 20,
        folderPath: '/',
      },
    });
    const article = await t.request('POST', '/api/articles', {
      data: { title: 'Media', cover: file.id, gallery: [file.id, String(file.id)] },
    });
    expect(article.status).toBe(201);
    const row = await t.sql('articles').first('data').where('document_id', article.body.data.documentId);
    expect(row.data.cover).toBe(file.id);
    expect(row.data.gallery).toEqual([file.id]);
    const read = await t.request(
      'GET',
      `/api/articles/${article.body.data.documentId}?populate[0]=cover&populate[1]=gallery`,
    );
    expect(read.body.data.cover).toMatchObject({
      id: file.id,
      documentId: file.documentId,
      name: 'a.png',
      mime: 'image/png',
      url: '/uploads/a_123.png',
      width: 10,
      height: 20,
      alternativeText: null,
      formats: null,
    });
    expect(read.body.data.cover).not.toHaveProperty('folderPath'); // private on the file type
    expect(read.body.data.gallery).toHaveLength(1);
    const missing = await t.request('POST', '/api/articles', { data: { title: 'Media', cover: 999999 } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.errors[0]).toMatchObject({
      path: ['cover'],
      message: 'File with id "999999" not found',
    });
  });
});

describe('single types', () => {
  it('answers 404 before the document exists, PUT creates then updates it, DELETE removes it', async () => {
    const before = await t.request('GET', '/api/global');
    expect(before.status).toBe(404);
    expect(before.body.error.name).toBe('NotFoundError');

    const created = await t.request('PUT', '/api/global', {
      data: { siteName: 'Vellum', defaultSeo: { metaTitle: 'Home' } },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ siteName: 'Vellum', siteDescription: null });
    const updated = await t.request('PUT', '/api/global', { data: { siteDescription: 'fast' } });
    expect(updated.body.data).toMatchObject({
      documentId: created.body.data.documentId,
      siteName: 'Vellum',
      siteDescription: 'fast',
    });
    expect(await count('globals')).toBe(1);

    const read = await t.request('GET', '/api/global?populate=*');
    expect(read.body.data.defaultSeo).toMatchObject({ metaTitle: 'Home' });
    expect(read.body.meta).toEqual({});

    const invalid = await t.request('PUT', '/api/global', { data: { siteName: null } });
    expect(invalid.status).toBe(400);

    const deleted = await t.request('DELETE', '/api/global');
    expect(deleted.status).toBe(204);
    expect(await count('globals')).toBe(0);
    expect((await t.request('DELETE', '/api/global')).status).toBe(404);
  });

  it('has no collection routes', async () => {
    expect((await t.request('GET', '/api/globals')).status).toBe(404);
    const post = await t.request('POST', '/api/global', { data: { siteName: 'x' } });
    expect(post.status).toBe(405);
    expect(post.body.error.name).toBe('MethodNotAllowedError');
  });
});

describe('request errors', () => {
  it('rejects malformed JSON with 400 and writes nothing', async () => {
    const before = await count('tags');
    const res = await t.request('POST', '/api/tags', '{"data":{', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError', details: {} } });
    expect(await count('tags')).toBe(before);
  });

  it('requires a data object in the body', async () => {
    for (const body of [{}, { dat: { name: 'x' } }, { data: 'x' }, { data: [] }, { data: null }]) {
      const res = await t.request('POST', '/api/tags', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'Missing "data" payload in the request body',
        details: {},
      });
    }
  });

  it('names a body key that is not an attribute', async () => {
    const res = await t.request('POST', '/api/tags', { data: { name: 'ok', colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      name: 'ValidationError',
      message: 'Invalid key colour',
      details: { key: 'colour', source: 'body' },
    });
    for (const key of ['id', 'documentId', 'createdAt']) {
      const r = await t.request('POST', '/api/tags', { data: { name: 'ok2', [key]: 1 } });
      expect(r.body.error.message).toBe(`Invalid key ${key}`);
    }
  });

  it('refuses query parameters it cannot answer rather than ignoring them', async () => {
    const res = await t.request('GET', '/api/tags?publicationFilter=modified');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ key: 'publicationFilter', source: 'query' });
    // unknown parameters are ignored, as Strapi does without strictParams
    expect((await t.request('GET', '/api/tags?utm_source=x')).status).toBe(200);
    expect((await t.request('GET', '/api/tags?status=bogus')).status).toBe(400);
  });

  it('answers unknown paths with a 404 envelope and sends a request id', async () => {
    const res = await t.request('GET', '/api/nothing-here', undefined, { 'x-request-id': 'trace-123' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect((await t.request('GET', '/api/tags')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers /_health after a database round trip', async () => {
    const res = await t.request('GET', '/_health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });
});

describe('storage', () => {
  it('keeps a typical document inline and uncompressed, and indexes the read scope', async () => {
    const body = 'x'.repeat(4000);
    const created = await t.request('POST', '/api/articles', {
      data: { title: 'inline', slug: 'inline-storage', summary: body },
    });
    expect(created.status, created.text).toBe(201);
    const { rows } = await t.sql.raw(
      `SELECT pg_column_compression(data) AS c, pg_column_size(data) AS size FROM articles WHERE document_id = ?`,
      [created.body.data.documentId],
    );
    expect(rows.length).toBeGreaterThan(0);
    // a 4 kB document is neither compressed nor moved out of the row (PostgreSQL's default would do both)
    for (const r of rows) {
      expect(r.c).toBeNull();
      expect(r.size).toBeGreaterThan(4000);
    }
    const { rows: options } = await t.sql.raw(`SELECT reloptions FROM pg_class WHERE relname = 'articles'`);
    expect(options[0].reloptions).toContain('toast_tuple_target=8160');
    const { rows: indexes } = await t.sql.raw(`SELECT indexdef FROM pg_indexes WHERE tablename = 'articles'`);
    const defs = indexes.map((i: { indexdef: string }) => i.indexdef).join('\n');
    expect(defs).toMatch(/USING btree \(locale, published_at\)/);
    expect(defs).toMatch(/USING gin \(data jsonb_path_ops\)/);
  });

  it('gives document tables the read columns (ROW_COLUMNS) in order, then value columns and the render', async () => {
    for (const table of ['articles', 'tags', 'globals', 'files', 'up_users']) {
      const { rows } = await t.sql.raw(
        `SELECT column_name, is_generated FROM information_schema.columns WHERE table_name = ?
         ORDER BY ordinal_position`,
        [table],
      );
      const names = rows.map((r: { column_name: string }) => r.column_name);
      expect(names.slice(0, ROW_COLUMNS.length)).toEqual(ROW_COLUMNS);
      // the rest are the read-indexed attributes' values and the kept render, which no write ever lists
      const rest = rows.slice(ROW_COLUMNS.length);
      expect(rest.filter((r: { column_name: string }) => ['v:doc', 'v:rv'].includes(r.column_name))).toEqual([
        { column_name: 'v:doc', is_generated: 'NEVER' },
        { column_name: 'v:rv', is_generated: 'NEVER' },
      ]);
      // and the kept renders of its components and zones, for a type that has any (articles, globals)
      const parts = rest.filter((r: { column_name: string }) => r.column_name === 'v:parts');
      expect(parts).toEqual(
        ['articles', 'globals'].includes(table) ? [{ column_name: 'v:parts', is_generated: 'NEVER' }] : [],
      );
      const kept = ['v:doc', 'v:rv', 'v:parts'];
      for (const r of rest.filter((r: { column_name: string }) => !kept.includes(r.column_name))) {
        expect(r).toMatchObject({ column_name: expect.stringMatching(/^v\$/), is_generated: 'ALWAYS' });
      }
    }
    const { rows } = await t.sql.raw(`SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_name = 'articles' AND is_generated = 'ALWAYS'`);
    expect(rows[0].n).toBeGreaterThan(0);
  });
});
