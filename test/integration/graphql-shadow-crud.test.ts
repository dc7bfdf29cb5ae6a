/**
 * `extension.shadowCRUD(uid)` in an app's `register` changes the generated schema as Strapi's does:
 * a disabled type leaves it (relations and media pointing at it too), disabled queries, mutations
 * and actions leave no root field, a disabled field leaves the output type, input or filters. What
 * remains answers over HTTP, and REST serves everything as before.
 */
import { type GraphQLSchema, isInputObjectType, isObjectType, isUnionType, validateSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../../index.ts';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import type { ShadowCrud } from '../../plugins/graphql/extension/shadow-crud.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

/** A plugin whose `register` sets the shadow CRUD through the graphql plugin's extension service. */
const shadowPlugin = (set: (shadow: ShadowCrud) => void) =>
  definePlugin({
    name: 'shadow-test',
    dependencies: ['graphql'],
    register(app) {
      set(app.plugin(graphqlPlugin).extension.shadowCRUD);
    },
  });

/** The field names of an object or input type; null when the schema has no such type. */
function fieldsOf(schema: GraphQLSchema, name: string): string[] | null {
  const type = schema.getType(name);
  if (!isObjectType(type) && !isInputObjectType(type)) return null;
  return Object.keys(type.getFields());
}

const schemaOf = (t: TestApp): GraphQLSchema => t.app.plugin(graphqlPlugin).schema();
const rootsOf = (t: TestApp, root: 'Query' | 'Mutation'): string[] => fieldsOf(schemaOf(t), root) ?? [];

async function gql(t: TestApp, query: string, variables?: Record<string, unknown>) {
  return t.request('POST', '/graphql', { query, variables });
}

async function expectInvalid(t: TestApp, query: string, variables?: Record<string, unknown>) {
  const res = await gql(t, query, variables);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
}

describe('several types and fields disabled at once (blog)', () => {
  let t: TestApp;
  const seen: Record<string, unknown> = {};

  beforeAll(async () => {
    const plugin = shadowPlugin((shadow) => {
      const tag = shadow('api::tag.tag');
      seen.tagBefore = [tag.isEnabled(), tag.isDisabled()];
      seen.tagChained = tag.disable() === tag;
      seen.tagAfter = [tag.isEnabled(), tag.isDisabled()];
      shadow('api::author.author').disableQueries();
      shadow('api::global.global').disableMutations();
      const article = shadow('api::article.article').disableActions(['findOne', 'delete']);
      seen.articleActions = ['find', 'findOne', 'create', 'update', 'delete'].map((a) => article.isActionEnabled(a));
      article.field('views').disableOutput();
      article.field('rating').disableInput();
      article.field('price').disableFilters();
      const summary = article.field('summary');
      seen.summaryBefore = [summary.isEnabled(), summary.hasOutputEnabled(), summary.hasInputEnabled()];
      summary.disable();
      seen.summaryAfter = [summary.isDisabled(), summary.hasOutputEnabled(), summary.hasFiltersEnabeld()];
      shadow('shared.seo').field('metaDescription').disableOutput();
      shadow('shared.seo').field('metaTitle').disableFilters();
    });
    t = await startApp({ plugins: [plugin] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the getters answered in register as set', () => {
    expect(seen).toEqual({
      tagBefore: [true, false],
      tagChained: true,
      tagAfter: [false, true],
      articleActions: [true, false, true, true, false],
      summaryBefore: [true, true, true],
      summaryAfter: [true, false, false],
    });
  });

  it('builds a valid schema', () => {
    expect(validateSchema(schemaOf(t))).toEqual([]);
  });

  it('disable(): no root field, no type, and no relation to it anywhere', () => {
    const schema = schemaOf(t);
    for (const name of ['Tag', 'TagEntity', 'TagEntityResponse', 'TagEntityResponseCollection', 'TagInput']) {
      expect(schema.getType(name), name).toBeUndefined();
    }
    expect(schema.getType('TagFiltersInput')).toBeUndefined();
    expect(schema.getType('TagRelationResponseCollection')).toBeUndefined();
    expect(rootsOf(t, 'Query')).not.toContain('tags');
    expect(rootsOf(t, 'Query')).not.toContain('tag');
    for (const m of ['createTag', 'updateTag', 'deleteTag']) expect(rootsOf(t, 'Mutation')).not.toContain(m);
    // Article.tags points at Tag: gone from the output, the input and the filters
    expect(fieldsOf(schema, 'Article')).not.toContain('tags');
    expect(fieldsOf(schema, 'ArticleInput')).not.toContain('tags');
    expect(fieldsOf(schema, 'ArticleFiltersInput')).not.toContain('tags');
    expect(fieldsOf(schema, 'Article')).toContain('author');
    const roots = t.app.plugin(graphqlPlugin).model().roots;
    expect([...roots.keys()].filter((k) => /^tags?$/.test(k))).toEqual([]);
  });

  it('disableQueries(): no Query field, the type still reached through relations and mutations', () => {
    const schema = schemaOf(t);
    expect(rootsOf(t, 'Query')).not.toContain('author');
    expect(rootsOf(t, 'Query')).not.toContain('authors');
    expect(rootsOf(t, 'Mutation')).toEqual(expect.arrayContaining(['createAuthor', 'updateAuthor', 'deleteAuthor']));
    expect(fieldsOf(schema, 'Author')).toContain('name');
    const roots = t.app.plugin(graphqlPlugin).model().roots;
    expect(roots.has('author') || roots.has('authors')).toBe(false);
  });

  it('disableMutations() on a single type: its query stays, updateX/deleteX are gone', () => {
    expect(rootsOf(t, 'Query')).toContain('global');
    expect(rootsOf(t, 'Mutation')).not.toContain('updateGlobal');
    expect(rootsOf(t, 'Mutation')).not.toContain('deleteGlobal');
  });

  it('disableActions(): only those root fields are gone', () => {
    expect(rootsOf(t, 'Query')).toContain('articles');
    expect(rootsOf(t, 'Query')).not.toContain('article');
    expect(rootsOf(t, 'Mutation')).toEqual(expect.arrayContaining(['createArticle', 'updateArticle']));
    expect(rootsOf(t, 'Mutation')).not.toContain('deleteArticle');
    const roots = t.app.plugin(graphqlPlugin).model().roots;
    expect(roots.has('articles')).toBe(true);
    expect(roots.has('article')).toBe(false);
  });

  it('field setters: each removes the field from its part only', () => {
    const schema = schemaOf(t);
    const out = fieldsOf(schema, 'Article');
    const input = fieldsOf(schema, 'ArticleInput');
    const filters = fieldsOf(schema, 'ArticleFiltersInput');
    expect(out).not.toContain('views');
    expect(input).toContain('views');
    expect(filters).toContain('views');
    expect(out).toContain('rating');
    expect(input).not.toContain('rating');
    expect(filters).toContain('rating');
    expect(out).toContain('price');
    expect(input).toContain('price');
    expect(filters).not.toContain('price');
    for (const fields of [out, input, filters]) {
      expect(fields).not.toContain('summary');
      expect(fields).toContain('title');
    }
  });

  it("field setters on a component (Strapi applies them to components' types too)", () => {
    const schema = schemaOf(t);
    expect(fieldsOf(schema, 'ComponentSharedSeo')).not.toContain('metaDescription');
    expect(fieldsOf(schema, 'ComponentSharedSeo')).toContain('metaTitle');
    expect(fieldsOf(schema, 'ComponentSharedSeoInput')).toEqual(
      expect.arrayContaining(['metaTitle', 'metaDescription']),
    );
    expect(fieldsOf(schema, 'ComponentSharedSeoFiltersInput')).toContain('metaDescription');
    expect(fieldsOf(schema, 'ComponentSharedSeoFiltersInput')).not.toContain('metaTitle');
  });

  it('a query using a removed field or root is refused by validation', async () => {
    await expectInvalid(t, '{ tags { data { id } } }');
    await expectInvalid(t, '{ articles { data { attributes { tags { data { id } } } } } }');
    await expectInvalid(t, '{ articles { data { attributes { views } } } }');
    await expectInvalid(t, '{ articles { data { attributes { summary } } } }');
    await expectInvalid(t, '{ articles(filters: { price: { eq: 1 } }) { data { id } } }');
    await expectInvalid(t, '{ articles(filters: { seo: { metaTitle: { eq: "x" } } }) { data { id } } }');
    await expectInvalid(t, '{ articles { data { attributes { seo { metaDescription } } } } }');
    await expectInvalid(t, '{ article(id: "x") { data { id } } }');
    await expectInvalid(t, '{ authors { data { id } } }');
    await expectInvalid(t, 'mutation { deleteArticle(id: "x") { data { id } } }');
    await expectInvalid(t, 'mutation { updateGlobal(data: { siteName: "x" }) { data { id } } }');
    await expectInvalid(t, 'mutation { createArticle(data: { title: "x", rating: 2 }) { data { id } } }');
  });

  it('what remains answers, in one statement per root field', async () => {
    const created = await gql(
      t,
      `mutation($data: ArticleInput!) {
        createArticle(data: $data) { data { id attributes { title price rating seo { metaTitle } } } }
      }`,
      {
        data: {
          title: 'Shadow',
          views: 7,
          price: 2.5,
          publishedAt: '2024-01-01T00:00:00.000Z',
          seo: { metaTitle: 'T', metaDescription: 'D' },
        },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const doc = created.body.data.createArticle.data;
    expect(doc.attributes).toEqual({ title: 'Shadow', price: 2.5, rating: null, seo: { metaTitle: 'T' } });

    const author = await gql(t, 'mutation { createAuthor(data: { name: "Ann" }) { data { attributes { name } } } }');
    expect(author.body).toEqual({ data: { createAuthor: { data: { attributes: { name: 'Ann' } } } } });

    t.queries.length = 0;
    const list = await gql(
      t,
      `{ articles(filters: { views: { eq: 7 }, rating: { null: true } }) {
          data { id attributes { title price seo { metaTitle } author { data { id } } } }
          meta { pagination { total } }
        } }`,
    );
    expect(list.body).toEqual({
      data: {
        articles: {
          data: [
            {
              id: doc.id,
              attributes: { title: 'Shadow', price: 2.5, seo: { metaTitle: 'T' }, author: { data: null } },
            },
          ],
          meta: { pagination: { total: 1 } },
        },
      },
    });
    const reads = t.queries.filter((q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(reads).toHaveLength(1);

    const global = await gql(t, '{ global { data { attributes { siteName } } } }');
    expect(global.status).toBe(200);
    expect(global.body.errors).toBeUndefined();
  });

  it('REST still serves the disabled type and fields', async () => {
    const tag = await t.request('POST', '/api/tags', { data: { name: 'hidden' } });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
    const tags = await t.request('GET', '/api/tags');
    expect(tags.status).toBe(200);
    expect(tags.body.data.map((x: { name: string }) => x.name)).toContain('hidden');

    const articles = await t.request('GET', '/api/articles?filters[price][$eq]=2.5&populate[0]=seo');
    expect(articles.status).toBe(200);
    expect(articles.body.data).toHaveLength(1);
    const attrs = articles.body.data[0];
    // views (output off), written through GraphQL's input, and the component's metaDescription
    expect(attrs.views).toBe(7);
    expect(attrs.seo).toMatchObject({ metaTitle: 'T', metaDescription: 'D' });
    const authors = await t.request('GET', '/api/authors');
    expect(authors.status).toBe(200);
    expect(authors.body.data).toHaveLength(1);
  });
});

describe('plugin types disabled (upload, users-permissions, i18n)', () => {
  let t: TestApp;

  beforeAll(async () => {
    const plugin = shadowPlugin((shadow) => {
      for (const uid of [
        'plugin::upload.file',
        'plugin::users-permissions.user',
        'plugin::users-permissions.role',
        'plugin::i18n.locale',
      ]) {
        shadow(uid).disable();
      }
    });
    t = await startApp({ plugins: [plugin] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds a valid schema without their types, roots or the media fields pointing at files', () => {
    const schema = schemaOf(t);
    expect(validateSchema(schema)).toEqual([]);
    for (const name of ['UploadFile', 'UsersPermissionsUser', 'UsersPermissionsRole', 'I18NLocale']) {
      expect(schema.getType(name), name).toBeUndefined();
      expect(schema.getType(`${name}Input`), name).toBeUndefined();
      expect(schema.getType(`${name}EntityResponse`), name).toBeUndefined();
    }
    const queries = rootsOf(t, 'Query');
    for (const q of ['uploadFile', 'uploadFiles', 'usersPermissionsUser', 'usersPermissionsUsers']) {
      expect(queries).not.toContain(q);
    }
    for (const q of ['usersPermissionsRole', 'usersPermissionsRoles', 'i18NLocale', 'i18NLocales']) {
      expect(queries).not.toContain(q);
    }
    expect(queries).toEqual(expect.arrayContaining(['me', 'articles', 'article']));
    const mutations = rootsOf(t, 'Mutation');
    for (const m of [
      'upload',
      'multipleUpload',
      'updateFileInfo',
      'removeFile',
      'createUploadFile',
      'deleteUploadFile',
    ]) {
      expect(mutations).not.toContain(m);
    }
    for (const m of ['createUsersPermissionsUser', 'updateUsersPermissionsUser', 'createUsersPermissionsRole']) {
      expect(mutations).not.toContain(m);
    }
    // users-permissions' own operations answer UsersPermissionsMe, not the user entity: they stay
    expect(mutations).toEqual(expect.arrayContaining(['register', 'login', 'emailConfirmation', 'createArticle']));
    expect(fieldsOf(schema, 'Article')).not.toContain('cover');
    expect(fieldsOf(schema, 'Article')).not.toContain('gallery');
    expect(fieldsOf(schema, 'ArticleInput')).not.toContain('cover');
    expect(fieldsOf(schema, 'Author')).not.toContain('avatar');
    expect(fieldsOf(schema, 'ComponentSharedSeo')).not.toContain('shareImage');
    expect(fieldsOf(schema, 'ComponentSharedSeoInput')).not.toContain('shareImage');
    expect(fieldsOf(schema, 'Global')).not.toContain('favicon');
    expect(fieldsOf(schema, 'Global')).toContain('siteName');
  });

  it('register and login still answer; a media field is refused', async () => {
    const input = { username: 'shadow', email: 'shadow@example.com', password: 'Secret123' };
    const reg = await gql(
      t,
      'mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { username } } }',
      { input },
    );
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body.data.register.user).toEqual({ username: 'shadow' });
    const login = await gql(t, 'mutation($input: UsersPermissionsLoginInput!) { login(input: $input) { jwt } }', {
      input: { identifier: 'shadow', password: 'Secret123' },
    });
    expect(typeof login.body.data.login.jwt).toBe('string');
    await expectInvalid(t, '{ articles { data { attributes { cover { data { id } } } } } }');
    await expectInvalid(t, '{ uploadFiles { data { id } } }');
    const list = await gql(t, '{ articles { data { id } } }');
    expect(list.body).toEqual({ data: { articles: { data: [] } } });
  });

  it('REST still serves them', async () => {
    for (const path of ['/api/upload/files', '/api/users', '/api/i18n/locales', '/api/users-permissions/roles']) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(200);
    }
    const users = await t.request('GET', '/api/users');
    expect(users.body.map((u: { username: string }) => u.username)).toContain('shadow');
  });
});

describe("'*' actions, a single type's find, a disabled component, the file's mutations", () => {
  let t: TestApp;

  beforeAll(async () => {
    const plugin = shadowPlugin((shadow) => {
      shadow('api::article.article').disableAction('*');
      shadow('api::global.global').disableAction('find');
      shadow('shared.quote').disable();
      shadow('plugin::upload.file').disableMutations();
    });
    t = await startApp({ plugins: [plugin] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("'*' removes every root field of the type; the type stays where it is reached", () => {
    const schema = schemaOf(t);
    expect(validateSchema(schema)).toEqual([]);
    const queries = rootsOf(t, 'Query');
    const mutations = rootsOf(t, 'Mutation');
    for (const f of ['article', 'articles']) expect(queries).not.toContain(f);
    for (const f of ['createArticle', 'updateArticle', 'deleteArticle']) expect(mutations).not.toContain(f);
    expect(fieldsOf(schema, 'Author')).toContain('articles');
    expect(fieldsOf(schema, 'Article')).toContain('title');
    expect(queries).toEqual(expect.arrayContaining(['authors', 'author', 'tags']));
  });

  it("a single type's find action is its query; its writes stay", () => {
    expect(rootsOf(t, 'Query')).not.toContain('global');
    expect(rootsOf(t, 'Mutation')).toEqual(expect.arrayContaining(['updateGlobal', 'deleteGlobal']));
    expect(t.app.plugin(graphqlPlugin).model().roots.has('global')).toBe(false);
  });

  it("the file's shadow CRUD writes follow disableMutations(); upload's own operations stay", () => {
    const mutations = rootsOf(t, 'Mutation');
    for (const m of ['createUploadFile', 'updateUploadFile', 'deleteUploadFile']) expect(mutations).not.toContain(m);
    expect(mutations).toEqual(expect.arrayContaining(['upload', 'multipleUpload', 'updateFileInfo', 'removeFile']));
    expect(rootsOf(t, 'Query')).toEqual(expect.arrayContaining(['uploadFiles', 'uploadFile']));
  });

  it('a disabled component leaves its type, the unions and the attributes using it', () => {
    const schema = schemaOf(t);
    expect(schema.getType('ComponentSharedQuote')).toBeUndefined();
    expect(schema.getType('ComponentSharedQuoteInput')).toBeUndefined();
    const union = schema.getType('ArticleBlocksDynamicZone');
    if (!isUnionType(union)) throw new Error('no ArticleBlocksDynamicZone');
    const members = union.getTypes().map((m) => m.name);
    expect(members).toContain('ComponentSharedRichText');
    expect(members).not.toContain('ComponentSharedQuote');
  });

  it("what remains answers; a disabled component's dynamic-zone items are left out", async () => {
    const author = await t.app.documents('api::author.author').create({ data: { name: 'Bo' } });
    await t.app.documents('api::article.article').create({
      status: 'published',
      data: {
        title: 'Zoned',
        author: author.documentId,
        blocks: [
          { __component: 'shared.rich-text', body: 'hello' },
          { __component: 'shared.quote', title: 'Q', body: 'quoted' },
        ],
      },
    });
    const res = await gql(
      t,
      `{ authors { data { attributes { name articles { data { attributes {
          title blocks { __typename ... on ComponentSharedRichText { body } }
        } } } } } } }`,
    );
    expect(res.body).toEqual({
      data: {
        authors: {
          data: [
            {
              attributes: {
                name: 'Bo',
                articles: {
                  data: [
                    {
                      attributes: {
                        title: 'Zoned',
                        blocks: [{ __typename: 'ComponentSharedRichText', body: 'hello' }],
                      },
                    },
                  ],
                },
              },
            },
          ],
        },
      },
    });
    await expectInvalid(t, '{ articles { data { id } } }');
    await expectInvalid(t, '{ global { data { id } } }');
    const rest = await t.request('GET', '/api/articles?populate[0]=blocks');
    expect(rest.status).toBe(200);
    expect(rest.body.data[0].blocks).toHaveLength(2);
    const global = await t.request('GET', '/api/global');
    expect([200, 404]).toContain(global.status);
  });
});

describe('a type whose every field is disabled', () => {
  it('is refused at bootstrap with the reason, not served as a broken schema', async () => {
    const plugin = shadowPlugin((shadow) => {
      const tag = shadow('api::tag.tag');
      for (const name of ['name', 'articles', 'createdAt', 'updatedAt']) tag.field(name).disable();
    });
    await expect(startApp({ plugins: [plugin] })).rejects.toThrow(/Type Tag must define one or more fields/);
  });
});
