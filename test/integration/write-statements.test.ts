import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentMiddleware } from '../../core/index.ts';
import { createVellumApp } from '../../index.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';

/**
 * What a write costs in statements, and that what it saves is safe: a `PUT` that publishes hands
 * the draft it wrote to its publish instead of reading it again (core/documents/written.ts),
 * answers from the rows it wrote instead of reading them back, copies shared attributes only to
 * locales that exist, and takes component ids from a block kept in memory (id-pool.ts).
 */
let t: TestApp;
// a middleware inside draft & publish, between an update and the publish that follows it
let between: DocumentMiddleware | undefined;
beforeAll(async () => {
  t = await startApp({ env: { RESPONSE_CACHE: 'false' } });
  t.app.documents.use((ctx, next) => (between ? between(ctx, next) : next()));
});
afterAll(async () => {
  await t?.close();
});

const ARTICLES = '/api/articles';
let n = 0;
/** An article with every scalar type, a private attribute and components; `meta`'s keys out of jsonb's order. */
const article = (extra: Record<string, unknown> = {}) => {
  n += 1;
  return {
    title: `Write statements ${n}`,
    slug: `write-statements-${n}`,
    summary: 'A summary.',
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Body.', bold: true }] }],
    views: 10 + n,
    rating: 4.5,
    price: 12.34,
    isFeatured: true,
    publishDate: '2025-03-04',
    readingTime: '00:05:00.000',
    meta: { zeta: 1, alpha: { deep: [1, 2], b: true }, mid: 'x' },
    category: 'news',
    contactEmail: 'editor@example.com',
    internalNotes: 'never returned',
    seo: { metaTitle: 'Seo', keywords: [{ value: 'one' }, { value: 'two' }] },
    blocks: [{ __component: 'shared.rich-text', body: 'Rich.' }],
    ...extra,
  };
};

/** The statements a request ran, BEGIN and COMMIT included. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  t.queries.length = 0;
  await run();
  return [...t.queries];
}

const isCopy = (s: string) => /^UPDATE "articles" AS "o"/.test(s);
const isDraftRead = (s: string) => /^select .* from "articles" .*for no key update/is.test(s);

describe('a PUT that publishes', () => {
  it('runs seven statements on a document in one locale, and answers what a read then answers', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.documentId;
    // the first PUT may take a block of component ids
    await t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 1 } });
    let res: any;
    const statements = await statementsOf(async () => {
      res = await t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 2, title: 'Edited once' } });
    });
    expect(res.status, res.text).toBe(200);
    expect(statements.map((s) => s.split(/\s/)[0].toUpperCase())).toEqual([
      'BEGIN;',
      'SELECT', // the document's write lock
      'SELECT', // the draft, with whether it has a published version and other locales
      'UPDATE', // the draft, returned
      'UPDATE', // the published version, returned
      '/*', // the generations
      'COMMIT;',
    ]);
    expect(statements.filter(isDraftRead)).toHaveLength(1);
    expect(statements.some((s) => /nextval/.test(s))).toBe(false);
    // byte for byte what a read answers, private attribute left out, nested JSON in the same order
    const read = await t.request('GET', `${ARTICLES}/${id}`);
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(read.body.data));
    expect(read.body.data).toMatchObject({ views: 2, title: 'Edited once', category: 'news' });
    expect(res.body.data).not.toHaveProperty('internalNotes');
    expect(Object.keys(res.body.data.meta)).toEqual(Object.keys(read.body.data.meta));
  });

  it('answers a draft PUT as a read of the draft answers, and publishes nothing', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    const id = created.body.data.documentId;
    const res = await t.request('PUT', `${ARTICLES}/${id}?status=draft`, { data: { views: 77 } });
    expect(res.status, res.text).toBe(200);
    const draft = await t.request('GET', `${ARTICLES}/${id}?status=draft`);
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(draft.body.data));
    expect(res.body.data.publishedAt).toBeNull();
    expect((await t.request('GET', `${ARTICLES}/${id}`)).body.data.views).not.toBe(77);
  });

  it('reads the answer back when the caller asks for relations or fields', async () => {
    const author = await t.request('POST', '/api/authors', { data: { name: 'Read back', email: 'rb@example.com' } });
    const created = await t.request('POST', ARTICLES, { data: article({ author: author.body.data.documentId }) });
    const id = created.body.data.documentId;
    const populated = await t.request('PUT', `${ARTICLES}/${id}?populate=author`, { data: { views: 3 } });
    expect(populated.status, populated.text).toBe(200);
    expect(populated.body.data.author.name).toBe('Read back');
    const fields = await t.request('PUT', `${ARTICLES}/${id}?fields[0]=views`, { data: { views: 4 } });
    expect(fields.body.data).toEqual({ id: fields.body.data.id, documentId: id, views: 4 });
  });

  it('publishes a draft written again by other means between the update and the publish as it now is', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    const id = created.body.data.documentId;
    const draftOnly = await t.request('POST', `${ARTICLES}?status=draft`, { data: article() });
    const newId = draftOnly.body.data.documentId;
    between = async (ctx, next) => {
      const out = await next();
      if (ctx.action === 'update' && ctx.uid === 'api::article.article') {
        // a middleware's own SQL, which the service does not see: the draft's ctid changes
        await ctx.db.raw(
          `UPDATE articles SET data = jsonb_set(data, '{summary}', '"written between"')
           WHERE document_id = ? AND published_at IS NULL`,
          [ctx.params.documentId],
        );
      }
      return out;
    };
    try {
      // a republish (the published version rewritten) and a first publish (inserted)
      const republished = await t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 5 } });
      const first = await t.request('PUT', `${ARTICLES}/${newId}`, { data: { views: 6 } });
      expect([republished.status, first.status]).toEqual([200, 200]);
      expect(republished.body.data).toMatchObject({ summary: 'written between', views: 5 });
      expect(first.body.data).toMatchObject({ summary: 'written between', views: 6 });
    } finally {
      between = undefined;
    }
    for (const [doc, views] of [
      [id, 5],
      [newId, 6],
    ] as const) {
      const published = await t.request('GET', `${ARTICLES}/${doc}`);
      expect(published.body.data).toMatchObject({ summary: 'written between', views });
      const rows = await t.sql('articles').where({ document_id: doc }).whereNotNull('published_at');
      expect(rows).toHaveLength(1);
    }
  });

  it('publishes a draft-only document for the first time in one INSERT, without reading it again', async () => {
    const draftOnly = await t.request('POST', `${ARTICLES}?status=draft`, { data: article() });
    const id = draftOnly.body.data.documentId;
    let res: any;
    const statements = await statementsOf(async () => {
      res = await t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 8 } });
    });
    expect(res.status, res.text).toBe(200);
    expect(statements.filter(isDraftRead)).toHaveLength(1);
    expect(statements.filter((s) => /^INSERT INTO "articles"/i.test(s))).toHaveLength(1);
    expect(res.body.data.publishedAt).not.toBeNull();
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify((await t.request('GET', `${ARTICLES}/${id}`)).body.data));
  });

  it('a POST that publishes writes the draft and the published version and reads neither back', async () => {
    await t.request('POST', ARTICLES, { data: article() });
    let res: any;
    const statements = await statementsOf(async () => {
      res = await t.request('POST', ARTICLES, { data: article() });
    });
    expect(res.status, res.text).toBe(201);
    expect(statements.filter((s) => /^select/i.test(s) && /"articles"/.test(s))).toEqual([]);
    expect(statements.filter((s) => /^insert into "articles"/i.test(s))).toHaveLength(2);
    const read = await t.request('GET', `${ARTICLES}/${res.body.data.documentId}`);
    expect(JSON.stringify(res.body.data)).toBe(JSON.stringify(read.body.data));
  });

  it('refuses to publish a draft that breaks a rule, and leaves the published version as it was', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    const id = created.body.data.documentId;
    // a draft may lack a required attribute; publishing it may not
    const res = await t.request('PUT', `${ARTICLES}/${id}`, { data: { title: null } });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    const published = await t.request('GET', `${ARTICLES}/${id}`);
    expect(published.body.data.title).toBe(created.body.data.title);
  });
});

describe('shared attributes are copied to the locales a document has', () => {
  it('copies nothing, in no statement, when the document has one locale', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    const id = created.body.data.documentId;
    const statements = await statementsOf(() => t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 9 } }));
    expect(statements.filter(isCopy)).toEqual([]);
  });

  it('copies to the draft and the published version of another locale', async () => {
    const created = await t.request('POST', ARTICLES, { data: article() });
    const id = created.body.data.documentId;
    const fr = await t.request('PUT', `${ARTICLES}/${id}?locale=fr`, { data: { title: 'Version française' } });
    expect(fr.status, fr.text).toBe(200);
    const statements = await statementsOf(() => t.request('PUT', `${ARTICLES}/${id}`, { data: { views: 321 } }));
    // the draft's copy, then the published version's
    expect(statements.filter(isCopy)).toHaveLength(2);
    expect((await t.request('GET', `${ARTICLES}/${id}?locale=fr`)).body.data.views).toBe(321);
    expect((await t.request('GET', `${ARTICLES}/${id}?locale=fr&status=draft`)).body.data.views).toBe(321);
  });
});

describe('component ids', () => {
  it('stay unique across concurrent writes on two instances of one database', async () => {
    const other = await createVellumApp({
      appDir: BLOG,
      databaseUrl: t.database.url,
      env: { ...process.env, VELLUM_DEMO_CONTENT: 'false', RESPONSE_CACHE: 'false' },
      logger: pino({ level: 'silent' }),
    });
    try {
      await other.start();
      const blocks = [
        { __component: 'shared.rich-text', body: 'a' },
        { __component: 'shared.rich-text', body: 'b' },
      ];
      const ids = await Promise.all(
        Array.from({ length: 16 }, async (_, i) => {
          const data = article({ blocks });
          if (i % 2 === 0) return (await t.request('POST', ARTICLES, { data })).body.data.documentId as string;
          const doc = await other.documents('api::article.article').create({ data, status: 'published' });
          return doc.documentId as string;
        }),
      );
      const { rows } = await t.sql.raw(
        `SELECT data->'seo'->>'id' AS id FROM articles WHERE document_id = ANY(?)
         UNION ALL SELECT c->>'id' FROM articles, jsonb_array_elements(data->'blocks') c WHERE document_id = ANY(?)
         UNION ALL SELECT k->>'id' FROM articles, jsonb_array_elements(data->'seo'->'keywords') k
           WHERE document_id = ANY(?)`,
        [ids, ids, ids],
      );
      // 16 documents, draft and published: a seo with two keywords and two blocks each
      expect(rows).toHaveLength(16 * 2 * 5);
      expect(rows.every((r: { id: string | null }) => r.id !== null)).toBe(true);
      expect(new Set(rows.map((r: { id: string }) => r.id)).size).toBe(rows.length);
    } finally {
      await other.destroy();
    }
  });

  it('are drawn from the sequence a block at a time', async () => {
    const statements = await statementsOf(async () => {
      for (let i = 0; i < 5; i++) await t.request('POST', ARTICLES, { data: article() });
    });
    // five documents, two versions each, five component instances each: 50 ids, at most one block
    expect(statements.filter((s) => /nextval/.test(s))).toEqual([]);
  });
});
