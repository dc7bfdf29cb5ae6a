/**
 * How fields with resolvers of their own (#14's custom resolvers, middlewares, policies) fit the
 * one-statement design: a query selecting one goes through graphql's `execute`, which calls it
 * with the object read for its parent (keyed by response keys); the read is still one statement,
 * and a query that selects none never calls it.
 */
import { type GraphQLFieldResolver, type GraphQLObjectType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let calls = 0;

beforeAll(async () => {
  t = await startApp();
  for (const title of ['one', 'two']) {
    await t.app.documents('api::article.article').create({ status: 'published', data: { title, views: 3 } });
  }
  const api = t.app.plugin(graphqlPlugin);
  const type = api.schema().getType('Article');
  if (!isObjectType(type)) throw new Error('no Article type');
  const upper: GraphQLFieldResolver<Record<string, unknown>, unknown> = (source, _args, _ctx, info) => {
    calls++;
    return String(source[info.path.key]).toUpperCase();
  };
  (type as GraphQLObjectType<Record<string, unknown>>).getFields().title.resolve = upper;
  api.model().resolved.add('Article.title');
});
afterAll(async () => {
  await t?.close();
});

describe('a field with a resolver of its own', () => {
  it('is called with the object read for its parent, under aliases, in one statement', async () => {
    t.queries.length = 0;
    const res = await t.request('POST', '/graphql', {
      query: '{ articles(sort: "title") { data { attributes { t: title views } } meta { pagination { total } } } }',
    });
    expect(res.body).toEqual({
      data: {
        articles: {
          data: [{ attributes: { t: 'ONE', views: 3 } }, { attributes: { t: 'TWO', views: 3 } }],
          meta: { pagination: { total: 2 } },
        },
      },
    });
    expect(calls).toBe(2);
    // the API token's own statements (its lookup, its lastUsedAt write under a lock) aside
    const reads = t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(reads).toHaveLength(1);
  });

  it('is never called by a query that does not select it', async () => {
    calls = 0;
    const res = await t.request('POST', '/graphql', { query: '{ articles { data { attributes { views } } } }' });
    expect(res.body.data.articles.data).toEqual([{ attributes: { views: 3 } }, { attributes: { views: 3 } }]);
    expect(calls).toBe(0);
  });
});
