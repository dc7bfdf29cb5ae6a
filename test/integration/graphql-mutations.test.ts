/**
 * GraphQL mutations on the blog fixture through HTTP, with Strapi 4's semantics: creates are
 * drafts unless `publishedAt` is set, updates and deletes of unknown ids answer `data: null`,
 * deletes answer the deleted document, validation errors write nothing, localizations, the
 * single type, authorization as REST's, serial root fields, and one statement for the read-back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';

let t: TestApp;
let author: string;
let tag: string;
let file: number;

async function gql(query: string, variables?: Record<string, unknown>, key?: string | null) {
  const headers = key === undefined ? undefined : { authorization: key ? `Bearer ${key}` : '' };
  return t.request('POST', '/graphql', { query, variables }, headers);
}

async function tokenFor(type: 'read-only' | 'custom', permissions: string[] = []): Promise<string> {
  const name = `t-${type}-${Math.random()}`;
  return (await t.app.plugin(usersPermissionsPlugin).tokens.create({ name, type, permissions })).accessKey;
}

const rows = (documentId: string) =>
  t.sql('articles').where({ document_id: documentId }).orderBy(['locale', 'published_at']);

const CREATE = `mutation($data: ArticleInput!, $locale: I18NLocaleCode) {
  createArticle(data: $data, locale: $locale) { data { id attributes { title locale publishedAt views
    author { data { id attributes { name } } } tags { data { id } } cover { data { id } }
    seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { body title } } } } }
}`;

beforeAll(async () => {
  t = await startApp();
  author = (await t.app.documents(AUTHOR).create({ data: { name: 'Ada' } })).documentId as string;
  tag = (await t.app.documents(TAG).create({ data: { name: 'news' } })).documentId as string;
  const f = await t.app.documents('plugin::upload.file').create({
    data: { name: 'a.png', hash: 'a_1', ext: '.png', mime: 'image/png', size: 1, provider: 'local', url: '/u/a.png' },
  });
  file = f.id as number;
});
afterAll(async () => {
  await t?.close();
});

describe('createX', () => {
  it('creates a draft with relations, media, a component and a dynamic zone', async () => {
    const data = {
      title: 'Draft one',
      views: 3,
      author,
      tags: [tag],
      cover: String(file),
      seo: { metaTitle: 'M' },
      blocks: [{ __typename: 'ComponentSharedQuote', body: 'Q', title: 'W' }],
      internalNotes: 'secret',
    };
    // a private attribute is in ArticleInput (as in Strapi 4's SDL) but dropped, as REST drops it
    const ok = await gql(CREATE, { data });
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    const created = ok.body.data.createArticle.data;
    expect(created.attributes).toMatchObject({
      title: 'Draft one',
      locale: 'en',
      publishedAt: null,
      views: 3,
      author: { data: { id: author, attributes: { name: 'Ada' } } },
      tags: { data: [{ id: tag }] },
      cover: { data: { id: String(file) } },
      seo: { metaTitle: 'M' },
      blocks: [{ __typename: 'ComponentSharedQuote', body: 'Q', title: 'W' }],
    });
    const stored = await rows(created.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ data: { title: 'Draft one' }, published_at: null, locale: 'en' });
    expect(stored[0].data.internalNotes).toBeUndefined();
    // a draft: REST's published read does not find it
    expect((await t.request('GET', `/api/articles/${created.id}`)).status).toBe(404);
  });

  it('publishes at once when publishedAt is set', async () => {
    const res = await gql(CREATE, { data: { title: 'Live', publishedAt: '2024-01-01T00:00:00.000Z' } });
    expect(res.body.errors).toBeUndefined();
    const doc = res.body.data.createArticle.data;
    expect(doc.attributes.publishedAt).not.toBeNull();
    expect(await rows(doc.id)).toHaveLength(2);
    const rest = await t.request('GET', `/api/articles/${doc.id}`);
    expect(rest.body.data.title).toBe('Live');
  });

  it('answers validation errors as BAD_USER_INPUT and writes nothing', async () => {
    const before = await t.sql('articles').count({ n: '*' });
    // a draft may lack required attributes (as in Strapi 4); what is published is validated in full
    const publishedAt = '2024-01-01T00:00:00.000Z';
    const cases = [{ views: 1 }, { title: 'x', views: -1 }, { title: 'y', author: 'nope' }, { title: 'z'.repeat(201) }];
    for (const one of cases) {
      const data = { ...one, publishedAt };
      const res = await gql(CREATE, { data });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ createArticle: null });
      expect(res.body.errors[0].extensions.code, JSON.stringify(one)).toBe('BAD_USER_INPUT');
      expect(res.body.errors[0].extensions.error).toMatchObject({
        name: 'ValidationError',
        details: { errors: expect.any(Array) },
      });
    }
    const bad = await gql(CREATE, { data: { title: 'z', blocks: [{ __typename: 'Nope', body: 'x' }] } });
    expect(bad.body.errors[0].message).toMatch(/^Component not found\. expected one of: ComponentShared/);
    expect(await t.sql('articles').count({ n: '*' })).toEqual(before);
  });

  it('reads the created document back in one statement', async () => {
    t.queries.length = 0;
    const res = await gql(CREATE, { data: { title: 'Counted', author, tags: [tag] } });
    expect(res.body.errors).toBeUndefined();
    // after the write's transaction commits: the read-back, and nothing else
    const commit = t.queries.map((q) => /^commit/i.test(q.trim())).lastIndexOf(true);
    expect(commit).toBeGreaterThan(0);
    const after = t.queries.slice(commit + 1).filter((q) => !/strapi_api_tokens|up_roles|advisory/.test(q));
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/^select/i);
  });
});

const UPDATE = `mutation($id: ID!, $data: ArticleInput!, $locale: I18NLocaleCode) {
  updateArticle(id: $id, data: $data, locale: $locale) { data { id attributes { title publishedAt locale } } }
}`;

describe('updateX and deleteX', () => {
  it('updates a draft, publishes with publishedAt, keeps what is live current, unpublishes with null', async () => {
    const id = (await gql(CREATE, { data: { title: 'U0' } })).body.data.createArticle.data.id as string;
    const u1 = await gql(UPDATE, { id, data: { title: 'U1' } });
    expect(u1.body.data.updateArticle.data).toEqual({
      id,
      attributes: { title: 'U1', publishedAt: null, locale: 'en' },
    });
    const u2 = await gql(UPDATE, { id, data: { publishedAt: '2024-01-01T00:00:00.000Z' } });
    expect(u2.body.data.updateArticle.data.attributes.publishedAt).not.toBeNull();
    // Strapi 4 had one row: an update of a published entry changes what is live
    await gql(UPDATE, { id, data: { title: 'U3' } });
    expect((await t.request('GET', `/api/articles/${id}`)).body.data.title).toBe('U3');
    const u4 = await gql(UPDATE, { id, data: { publishedAt: null } });
    expect(u4.body.data.updateArticle.data.attributes.publishedAt).toBeNull();
    expect((await t.request('GET', `/api/articles/${id}`)).status).toBe(404);
    expect(await rows(id)).toHaveLength(1);
  });

  it('answers data null for an unknown id, without an error', async () => {
    const u = await gql(UPDATE, { id: 'nope', data: { title: 'x' } });
    expect(u.body).toEqual({ data: { updateArticle: { data: null } } });
    const d = await gql('mutation { deleteArticle(id: "nope") { data { id } } }');
    expect(d.body).toEqual({ data: { deleteArticle: { data: null } } });
  });

  it('deletes and answers the deleted document', async () => {
    const id = (await gql(CREATE, { data: { title: 'Gone', publishedAt: '2024-01-01T00:00:00.000Z' } })).body.data
      .createArticle.data.id as string;
    const res = await gql(`mutation { deleteArticle(id: "${id}") { data { id attributes { title } } } }`);
    expect(res.body).toEqual({ data: { deleteArticle: { data: { id, attributes: { title: 'Gone' } } } } });
    expect(await rows(id)).toHaveLength(0);
  });

  it('runs root fields in order and two parallel updates of one document without a lost update', async () => {
    const id = (await gql(CREATE, { data: { title: 'P0' } })).body.data.createArticle.data.id as string;
    const serial = await gql(`mutation {
      a: updateArticle(id: "${id}", data: { title: "S1" }) { data { attributes { title } } }
      b: updateArticle(id: "${id}", data: { views: 7 }) { data { attributes { title views } } }
    }`);
    expect(serial.body.data.b.data.attributes).toEqual({ title: 'S1', views: 7 });
    const [x, y] = await Promise.all([
      gql(UPDATE, { id, data: { title: 'X' } }),
      gql(`mutation { updateArticle(id: "${id}", data: { views: 9 }) { data { id } } }`),
    ]);
    for (const r of [x, y]) expect(r.status).toBe(200);
    for (const r of [x, y]) expect(r.body.errors).toBeUndefined();
    const [row] = await rows(id);
    expect(row.data).toMatchObject({ title: 'X', views: 9 });
  });

  it('refuses a mutation over GET (405)', async () => {
    const res = await t.request(
      'GET',
      `/graphql?query=${encodeURIComponent('mutation { deleteAuthor(id: "x") { data { id } } }')}`,
    );
    expect(res.status).toBe(405);
  });
});

describe('localizations and the single type', () => {
  it('creates a localization of a document and writes in its locale', async () => {
    const id = (await gql(CREATE, { data: { title: 'English' } })).body.data.createArticle.data.id as string;
    const res = await gql(
      `mutation($id: ID) { createArticleLocalization(id: $id, locale: "fr", data: { title: "Français" }) {
        data { id attributes { title locale } } } }`,
      { id },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.createArticleLocalization.data).toEqual({
      id,
      attributes: { title: 'Français', locale: 'fr' },
    });
    const u = await gql(UPDATE, { id, locale: 'fr', data: { title: 'FR2' } });
    expect(u.body.data.updateArticle.data.attributes).toMatchObject({ title: 'FR2', locale: 'fr' });
    expect((await rows(id)).map((r) => [r.locale, r.data.title])).toEqual([
      ['en', 'English'],
      ['fr', 'FR2'],
    ]);
  });

  it('creates the single type on its first update, updates it and deletes it', async () => {
    const q = (m: string) => gql(`mutation { ${m} { data { id attributes { siteName } } } }`);
    const first = await q('updateGlobal(data: { siteName: "One" })');
    expect(first.body.data.updateGlobal.data.attributes).toEqual({ siteName: 'One' });
    const second = await q('updateGlobal(data: { siteName: "Two" })');
    expect(second.body.data.updateGlobal.data.id).toBe(first.body.data.updateGlobal.data.id);
    expect((await t.sql('globals')).map((r) => r.data.siteName)).toEqual(['Two']);
    const gone = await q('deleteGlobal');
    expect(gone.body.data.deleteGlobal.data.attributes).toEqual({ siteName: 'Two' });
    expect(await t.sql('globals').count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});

describe('authorization', () => {
  const FORBIDDEN = {
    message: 'Forbidden access',
    extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
  };
  const create = 'mutation { createTag(data: { name: "t" }) { data { id } } }';

  it('refuses the Public role and read-only tokens, writing nothing', async () => {
    const before = await t.sql('tags').count({ n: '*' });
    expect((await gql(create, undefined, null)).body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
    const ro = await tokenFor('read-only');
    expect((await gql(create, undefined, ro)).body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
    expect(await t.sql('tags').count({ n: '*' })).toEqual(before);
  });

  it('lets a custom token do what it grants', async () => {
    const key = await tokenFor('custom', [`${TAG}.create`]);
    const res = await gql(create, undefined, key);
    expect(res.body.errors).toBeUndefined();
    // (the blog has no deleteTag: its register disables it)
    const update = await gql(
      `mutation { updateTag(id: "${res.body.data.createTag.data.id}", data: { name: "n" }) { data { id } } }`,
      undefined,
      key,
    );
    expect(update.body.errors).toEqual([FORBIDDEN]);
  });

  it("lets a user's JWT do what its role grants", async () => {
    const jwt = await t.userJwt();
    const res = await gql(create, undefined, jwt);
    expect(res.body.errors).toEqual([FORBIDDEN]);
  });
});

describe('createXLocalization errors', () => {
  it('refuses a locale already used and an unknown document, writing nothing', async () => {
    const id = (await gql(CREATE, { data: { title: 'Once' } })).body.data.createArticle.data.id as string;
    const m = (docId: string, locale: string) =>
      gql(
        `mutation($id: ID, $locale: I18NLocaleCode) {
          createArticleLocalization(id: $id, locale: $locale, data: { title: "L" }) { data { id } } }`,
        { id: docId, locale },
      );
    const used = await m(id, 'en');
    expect(used.body.data).toEqual({ createArticleLocalization: null });
    expect(used.body.errors[0]).toMatchObject({
      message: 'locale is already used',
      extensions: { code: 'STRAPI_APPLICATION_ERROR' },
    });
    const unknown = await m('nope', 'fr');
    expect(unknown.body.errors[0].extensions.code).toBe('STRAPI_NOT_FOUND_ERROR');
    expect(await rows(id)).toHaveLength(1);
  });
});
