/**
 * Strapi 5's flat shape (`graphql.config.shape: 'flat'`) through HTTP: the same planner and one
 * statement per root field, Strapi 5's names and wrapping (`articles` a list, `article(documentId)`,
 * `articles_connection { nodes pageInfo }`, relations as the target's documents and
 * `<relation>_connection`, `status`), its writes addressed by documentId, and the same
 * authorization and errors as the entity shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { flatPluginCases } from '../helpers/flat-plugin-cases.ts';

const ARTICLE = 'api::article.article';
const FLAT = { plugins: { graphql: { config: { shape: 'flat' } } } };
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

let t: TestApp;
let ada: string;
let tags: string[];
let long: string;

const gql = (query: string, variables?: Record<string, unknown>, key?: string | null) =>
  t.request(
    'POST',
    '/graphql',
    { query, variables },
    key === undefined ? {} : { authorization: key ? `Bearer ${key}` : '' },
  );
/** The statements a request read with (the token's own bookkeeping aside). */
const reads = () =>
  t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));

beforeAll(async () => {
  t = await startApp({ config: FLAT });
  ada = (await t.app.documents('api::author.author').create({ data: { name: 'Ada' } })).documentId as string;
  tags = [];
  for (const name of ['a', 'b', 'c']) {
    tags.push((await t.app.documents('api::tag.tag').create({ data: { name } })).documentId as string);
  }
  const articles = t.app.documents(ARTICLE);
  long = (
    await articles.create({
      status: 'published',
      data: {
        title: 'Long',
        views: 10,
        author: ada,
        tags,
        seo: { metaTitle: 'meta' },
        blocks: [{ __component: 'shared.quote', title: 'q', body: 'quoted' }],
      },
    })
  ).documentId as string;
  await articles.create({ status: 'published', data: { title: 'Short', views: 2, tags: [tags[0]] } });
  await articles.create({ data: { title: 'Draft only', views: 1 } });
  await t.app.documents('api::global.global').create({ status: 'published', data: { siteName: 'Blog' } });
});
afterAll(async () => {
  await t?.close();
});

describe('flat queries', () => {
  it('lists documents, their relations as documents, in one statement', async () => {
    t.queries.length = 0;
    const res = await gql(`{
      articles(sort: "title") {
        documentId title views
        author { name }
        tags(sort: "name:desc", pagination: { limit: 2 }) { name }
        tags_connection(filters: { name: { eq: "a" } }) { nodes { name } }
        seo { metaTitle }
        blocks { __typename ... on ComponentSharedQuote { title body } }
      }
    }`);
    expect(res.body).toEqual({
      data: {
        articles: [
          {
            documentId: long,
            title: 'Long',
            views: 10,
            author: { name: 'Ada' },
            tags: [{ name: 'c' }, { name: 'b' }],
            tags_connection: { nodes: [{ name: 'a' }] },
            seo: { metaTitle: 'meta' },
            blocks: [{ __typename: 'ComponentSharedQuote', title: 'q', body: 'quoted' }],
          },
          {
            documentId: expect.any(String),
            title: 'Short',
            views: 2,
            author: null,
            tags: [{ name: 'a' }],
            tags_connection: { nodes: [{ name: 'a' }] },
            seo: null,
            blocks: [],
          },
        ],
      },
    });
    expect(reads()).toHaveLength(1);
  });

  it('answers a connection with nodes and pageInfo', async () => {
    const res = await gql(`{
      articles_connection(sort: "views:desc", pagination: { page: 1, pageSize: 1 }) {
        nodes { title } pageInfo { total page pageSize pageCount }
      }
    }`);
    expect(res.body).toEqual({
      data: {
        articles_connection: {
          nodes: [{ title: 'Long' }],
          pageInfo: { total: 2, page: 1, pageSize: 1, pageCount: 2 },
        },
      },
    });
  });

  it('reads one document by documentId, null when there is none', async () => {
    const res = await gql(`{ article(documentId: "${long}") { title } none: article(documentId: "nope") { title } }`);
    expect(res.body).toEqual({ data: { article: { title: 'Long' }, none: null } });
  });

  it('reads drafts with status: DRAFT and filters by documentId', async () => {
    const drafts = await gql('{ articles(status: DRAFT, sort: "title") { title } }');
    expect(drafts.body.data.articles.map((a: { title: string }) => a.title)).toEqual(['Draft only', 'Long', 'Short']);
    const one = await gql(`{ articles(filters: { documentId: { eq: "${long}" } }) { title } }`);
    expect(one.body).toEqual({ data: { articles: [{ title: 'Long' }] } });
  });

  it('reads a single type', async () => {
    expect((await gql('{ global { siteName } }')).body).toEqual({ data: { global: { siteName: 'Blog' } } });
  });

  it('answers a relation the caller may not read with null and FORBIDDEN', async () => {
    const key = (
      await t.app.plugin(usersPermissionsPlugin).tokens.create({
        name: 'articles only',
        type: 'custom',
        permissions: [`${ARTICLE}.find`],
      })
    ).accessKey;
    const res = await gql(`{ articles(filters: { title: { eq: "Long" } }) { title author { name } } }`, undefined, key);
    expect(res.body).toEqual({ errors: [FORBIDDEN], data: { articles: [{ title: 'Long', author: null }] } });
    const tagsOnly = await gql('{ article(documentId: "x") { title } }', undefined, key);
    expect(tagsOnly.body.errors).toEqual([FORBIDDEN]);
  });

  it('nulls the whole data when a non-null list fails, as GraphQL propagates it', async () => {
    const bad = await gql('{ articles(sort: "internalNotes:asc") { documentId } }');
    expect(bad.body.data).toBeNull();
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    // the Public role may not list users: `usersPermissionsUsers: [UsersPermissionsUser]!` nulls `data`
    const denied = await gql('{ articles { title } usersPermissionsUsers { documentId } }', undefined, null);
    expect(denied.body).toEqual({ errors: [FORBIDDEN], data: null });
    // a nullable root field stays a field's null
    const one = await gql('{ articles { title } article(documentId: "nope") { title } }', undefined, null);
    expect(one.body.data.article).toBeNull();
    expect(one.body.data.articles).toHaveLength(2);
  });

  it('refuses a field of the entity shape', async () => {
    const res = await gql('{ articles { data { id } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});

describe('flat mutations', () => {
  it('creates (published unless status: DRAFT), updates and deletes by documentId', async () => {
    const created = await gql(
      'mutation { createArticle(data: { title: "New", views: 5 }) { documentId title publishedAt } }',
    );
    const id = created.body.data.createArticle.documentId as string;
    expect(created.body.data.createArticle.title).toBe('New');
    expect(created.body.data.createArticle.publishedAt).not.toBeNull();
    const draft = await gql(
      'mutation { createArticle(data: { title: "Quiet" }, status: DRAFT) { documentId publishedAt } }',
    );
    expect(draft.body.data.createArticle.publishedAt).toBeNull();
    expect(await t.app.documents(ARTICLE).count({ filters: undefined })).toBeGreaterThanOrEqual(3);
    const updated = await gql(`mutation { updateArticle(documentId: "${id}", data: { title: "Renamed" }) { title } }`);
    expect(updated.body).toEqual({ data: { updateArticle: { title: 'Renamed' } } });
    const rest = await t.request('GET', `/api/articles/${id}`);
    expect(rest.body.data.title).toBe('Renamed');
    const deleted = await gql(`mutation { deleteArticle(documentId: "${id}") { documentId } }`);
    expect(deleted.body).toEqual({ data: { deleteArticle: { documentId: id } } });
    expect((await t.request('GET', `/api/articles/${id}`)).status).toBe(404);
  });

  it("answers Strapi 5's way for an unknown document: null on update, its documentId on delete", async () => {
    const update = await gql('mutation { updateTag(documentId: "nope", data: { name: "x" }) { documentId } }');
    expect(update.body).toEqual({ data: { updateTag: null } });
    const del = await gql('mutation { deleteAuthor(documentId: "nope") { documentId } }');
    expect(del.body).toEqual({ data: { deleteAuthor: { documentId: 'nope' } } });
  });

  it('refuses a write the caller may not make, writing nothing', async () => {
    const before = await t.sql('tags').count({ n: '*' });
    const res = await gql('mutation { createTag(data: { name: "x" }) { documentId } }', undefined, null);
    expect(res.body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
    expect(await t.sql('tags').count({ n: '*' })).toEqual(before);
  });
});

describe('the same data and REST', () => {
  it('answers REST as the entity shape does', async () => {
    const res = await t.request('GET', `/api/articles/${long}?populate[author][fields][0]=name`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ documentId: long, title: 'Long', author: { name: 'Ada' } });
  });
});

describe("users-permissions' and upload's operations, flat", () => {
  flatPluginCases(() => t);
});
