/**
 * The blog example's GraphQL customizations (examples/blog/src/index.ts and src/graphql/), as
 * a frontend meets them through HTTP: a custom query answered by Vellum's read, a computed
 * field, a mutation disabled with Strapi's spelling, a policy on a mutation, a registered
 * middleware timing a field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';

const ARTICLE = 'api::article.article';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

let t: TestApp;
let tag: string;

const gql = (query: string, anonymous = false) =>
  t.request('POST', '/graphql', { query }, anonymous ? { authorization: '' } : {});

beforeAll(async () => {
  t = await startApp();
  const ada = (await t.app.documents('api::author.author').create({ data: { name: 'Ada' } })).documentId;
  const bob = (await t.app.documents('api::author.author').create({ data: { name: 'Bob' } })).documentId;
  tag = (await t.app.documents('api::tag.tag').create({ data: { name: 'news' } })).documentId as string;
  const body = [{ type: 'paragraph', children: [{ type: 'text', text: 'lorem '.repeat(650) }] }];
  await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'Essay', author: ada, body } });
  await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'Note', author: ada } });
  await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'Other', author: bob } });
  // a draft: the custom query reads published articles, as `articles` does
  await t.app.documents(ARTICLE).create({ data: { title: 'Unpublished', author: ada } });
});
afterAll(async () => {
  await t?.close();
});

describe('the blog example on GraphQL', () => {
  it("lists an author's articles through the custom query, for the Public role, timed by its middleware", async () => {
    const res = await gql(
      `{ articlesByAuthor(name: "Ada", sort: "title") {
          data { attributes { title readingMinutes author { data { attributes { name } } } } }
          meta { pagination { total } } } }`,
      true,
    );
    expect(res.body).toEqual({
      data: {
        articlesByAuthor: {
          data: [
            { attributes: { title: 'Essay', readingMinutes: 4, author: { data: { attributes: { name: 'Ada' } } } } },
            { attributes: { title: 'Note', readingMinutes: 1, author: { data: { attributes: { name: 'Ada' } } } } },
          ],
          meta: { pagination: { total: 2 } },
        },
      },
    });
    expect(res.headers.get('server-timing')).toMatch(/^articlesByAuthor;dur=\d+(\.\d)?$/);
  });

  it('computes reading time on any article read, without a statement of its own', async () => {
    t.queries.length = 0;
    const res = await gql('{ articles(sort: "title") { data { attributes { title readingMinutes } } } }', true);
    expect(res.body.data.articles.data.map((a: { attributes: object }) => a.attributes)).toEqual([
      { title: 'Essay', readingMinutes: 4 },
      { title: 'Note', readingMinutes: 1 },
      { title: 'Other', readingMinutes: 1 },
    ]);
    const reads = t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(reads).toHaveLength(1);
  });

  it('has no deleteTag mutation, while REST still deletes tags', async () => {
    const res = await gql(`mutation { deleteTag(id: "${tag}") { data { id } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await gql('mutation { createTag(data: { name: "kept" }) { data { id } } }')).body.errors).toBeUndefined();
    expect((await t.request('DELETE', `/api/tags/${tag}`)).status).toBe(204);
    expect((await t.request('GET', `/api/tags/${tag}`)).status).toBe(404);
  });

  it('refuses a createArticle whose slug the policy reserves, writing nothing', async () => {
    const before = await t.app.documents(ARTICLE).count({ status: 'draft' });
    const reserved = await gql('mutation { createArticle(data: { title: "Feed", slug: "feed" }) { data { id } } }');
    expect(reserved.body).toEqual({ errors: [FORBIDDEN], data: { createArticle: null } });
    expect(await t.app.documents(ARTICLE).count({ status: 'draft' })).toBe(before);
    const ok = await gql('mutation { createArticle(data: { title: "Fed", slug: "fed" }) { data { id } } }');
    expect(ok.body.errors).toBeUndefined();
    expect(await t.app.documents(ARTICLE).count({ status: 'draft' })).toBe(before + 1);
    // REST's own routes are not GraphQL's: the policy is on the GraphQL field
    const rest = await t.request('POST', '/api/articles', { data: { title: 'Feed', slug: 'feed' } });
    expect(rest.status).toBe(201);
  });
});
