/**
 * The blog example's GraphQL customizations (examples/blog/src/index.ts and src/graphql/), as
 * a frontend meets them through HTTP: a custom query answered by Vellum's read, a computed
 * field, a mutation disabled with Strapi's spelling, a policy on a mutation, a registered
 * middleware timing a field. In both shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

const ARTICLE = 'api::article.article';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

describe.each(SHAPES)('the blog example on GraphQL (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  let t: TestApp;
  let tag: string;

  const gql = (query: string, anonymous = false) =>
    t.request('POST', '/graphql', { query }, anonymous ? { authorization: '' } : {});

  beforeAll(async () => {
    t = await startApp({ config: shapeConfig(shape) });
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

  it("lists an author's articles through the custom query, for the Public role, timed by its middleware", async () => {
    const sel = `title readingMinutes author ${q.docs('name')}`;
    // the custom query answers the shape's collection: `{ data meta }`, or a connection `{ nodes pageInfo }`
    const collection =
      shape === 'flat'
        ? `{ nodes { ${sel} } pageInfo { total } }`
        : `{ ${q.docs(sel).slice(2, -2)} meta { pagination { total } } }`;
    const res = await gql(`{ articlesByAuthor(name: "Ada", sort: "title") ${collection} }`, true);
    expect(res.body.errors).toBeUndefined();
    const answer = res.body.data.articlesByAuthor;
    expect(shape === 'flat' ? answer.nodes : q.rows(answer.data)).toEqual([
      { title: 'Essay', readingMinutes: 4, author: { name: 'Ada' } },
      { title: 'Note', readingMinutes: 1, author: { name: 'Ada' } },
    ]);
    expect(shape === 'flat' ? answer.pageInfo.total : answer.meta.pagination.total).toBe(2);
    expect(res.headers.get('server-timing')).toMatch(/^articlesByAuthor;dur=\d+(\.\d)?$/);
  });

  it('computes reading time on any article read, without a statement of its own', async () => {
    t.queries.length = 0;
    const res = await gql(`{ ${q.list('articles', 'title readingMinutes', 'sort: "title"')} }`, true);
    expect(q.rows(res.body.data.articles)).toEqual([
      { title: 'Essay', readingMinutes: 4 },
      { title: 'Note', readingMinutes: 1 },
      { title: 'Other', readingMinutes: 1 },
    ]);
    const reads = t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(reads).toHaveLength(1);
  });

  it('has no deleteTag mutation, while REST still deletes tags', async () => {
    const res = await gql(`mutation { ${q.ids('deleteTag', `${q.id}: "${tag}"`)} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const kept = await gql(`mutation { ${q.ids('createTag', 'data: { name: "kept" }')} }`);
    expect(q.rows([kept.body.data.createTag])[0]).toEqual({ documentId: expect.any(String) });
    expect((await t.request('DELETE', `/api/tags/${tag}`)).status).toBe(204);
    expect((await t.request('GET', `/api/tags/${tag}`)).status).toBe(404);
  });

  it('refuses a createArticle whose slug the policy reserves, writing nothing', async () => {
    const before = await t.app.documents(ARTICLE).count({ status: 'draft' });
    const reserved = await gql(`mutation { ${q.ids('createArticle', 'data: { title: "Feed", slug: "feed" }')} }`);
    expect(reserved.body).toEqual({ errors: [FORBIDDEN], data: { createArticle: null } });
    expect(await t.app.documents(ARTICLE).count({ status: 'draft' })).toBe(before);
    const ok = await gql(`mutation { ${q.ids('createArticle', 'data: { title: "Fed", slug: "fed" }')} }`);
    expect(ok.body.errors).toBeUndefined();
    expect(await t.app.documents(ARTICLE).count({ status: 'draft' })).toBe(before + 1);
    // REST's own routes are not GraphQL's: the policy is on the GraphQL field
    const rest = await t.request('POST', '/api/articles', { data: { title: 'Feed', slug: 'feed' } });
    expect(rest.status).toBe(201);
  });
});
