/**
 * Strapi 5's `v4CompatibilityMode` on the flat shape: the deprecated `id` (row id), `attributes`
 * and `data` (the document itself), and a connection's `data`/`meta` next to `nodes`/`pageInfo`,
 * all from the same one statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';

const COMPAT = { plugins: { graphql: { config: { shape: 'flat', v4CompatibilityMode: true } } } };

let t: TestApp;
let ada: string;

beforeAll(async () => {
  t = await startApp({ config: COMPAT });
  ada = (await t.app.documents('api::author.author').create({ data: { name: 'Ada' } })).documentId as string;
  const tag = (await t.app.documents('api::tag.tag').create({ data: { name: 'news' } })).documentId;
  await t.app.documents('api::article.article').create({
    status: 'published',
    data: { title: 'One', author: ada, tags: [tag], seo: { metaTitle: 'm' } },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('v4CompatibilityMode', () => {
  it('answers the deprecated fields beside the flat ones, in one statement', async () => {
    t.queries.length = 0;
    const res = await t.request('POST', '/graphql', {
      query: `{
        articles_connection {
          data { id documentId attributes { title } data { title } }
          meta { pagination { total } }
          nodes { title tags_connection { data { name } nodes { name } } seo { attributes { metaTitle } } }
          pageInfo { total }
        }
      }`,
    });
    const article = await t.sql('articles').whereNotNull('published_at').first();
    expect(res.body).toEqual({
      data: {
        articles_connection: {
          data: [
            {
              id: String(article.id),
              documentId: article.document_id,
              attributes: { title: 'One' },
              data: { title: 'One' },
            },
          ],
          meta: { pagination: { total: 1 } },
          nodes: [
            {
              title: 'One',
              tags_connection: { data: [{ name: 'news' }], nodes: [{ name: 'news' }] },
              seo: { attributes: { metaTitle: 'm' } },
            },
          ],
          pageInfo: { total: 1 },
        },
      },
    });
    const reads = t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(reads).toHaveLength(1);
  });

  it('reads a document by documentId with its id', async () => {
    const res = await t.request('POST', '/graphql', { query: `{ author(documentId: "${ada}") { id name } }` });
    const row = await t.sql('authors').where({ document_id: ada }).first();
    expect(res.body).toEqual({ data: { author: { id: String(row.id), name: 'Ada' } } });
  });
});
