/**
 * GraphQL mutations on the blog fixture through HTTP, in both shapes: Strapi 4's (creates are
 * drafts unless `publishedAt` is set, updates and deletes of unknown ids answer `data: null`,
 * deletes answer the deleted document) and Strapi 5's flat one (published unless `status: DRAFT`,
 * an unknown update null, a delete its documentId); validation errors write nothing, locales,
 * the single type, authorization as REST's, serial root fields, and one statement for the read-back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
const PUBLISHED_AT = '2024-01-01T00:00:00.000Z';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

describe.each(SHAPES)('GraphQL mutations (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  const flat = shape === 'flat';
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

  /** The flat shape's `status` variable and argument. */
  const statusVar = flat ? ', $status: PublicationStatus' : '';
  const statusArg = flat ? ', status: $status' : '';
  const CREATE = `mutation($data: ArticleInput!, $locale: I18NLocaleCode${statusVar}) {
    createArticle(data: $data, locale: $locale${statusArg}) ${q.docs(
      `title locale publishedAt views author ${q.docs('name', true)} tags ${q.docs('name', true)}
      cover ${q.docs('name')} seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { body title } }`,
      true,
    )}
  }`;
  /** Creates an article: a draft unless `publish` (the entity shape's `publishedAt`, the flat one's status). */
  const create = (data: Record<string, unknown>, publish = false, locale?: string) =>
    gql(
      CREATE,
      flat
        ? { data, locale, status: publish ? 'PUBLISHED' : 'DRAFT' }
        : { data: publish ? { ...data, publishedAt: PUBLISHED_AT } : data, locale },
    );
  /** The created document, unwrapped. */
  const created = (res: { body: any }) => q.data(res.body.data).createArticle;
  const createId = async (data: Record<string, unknown>, publish = false) =>
    created(await create(data, publish)).documentId as string;

  const UPDATE = `mutation($id: ID!, $data: ArticleInput!, $locale: I18NLocaleCode${statusVar}) {
    updateArticle(${q.id}: $id, data: $data, locale: $locale${statusArg})
      ${q.docs('title publishedAt locale', true)}
  }`;

  beforeAll(async () => {
    t = await startApp({ config: shapeConfig(shape) });
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
      // a private attribute is in ArticleInput (as in Strapi's SDL) but dropped, as REST drops it
      const ok = await create(data);
      expect(ok.status).toBe(200);
      expect(ok.body.errors).toBeUndefined();
      const doc = created(ok);
      expect(doc).toMatchObject({
        title: 'Draft one',
        locale: 'en',
        publishedAt: null,
        views: 3,
        author: { documentId: author, name: 'Ada' },
        tags: [{ documentId: tag, name: 'news' }],
        cover: { name: 'a.png' },
        seo: { metaTitle: 'M' },
        blocks: [{ __typename: 'ComponentSharedQuote', body: 'Q', title: 'W' }],
      });
      const stored = await rows(doc.documentId);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ data: { title: 'Draft one' }, published_at: null, locale: 'en' });
      expect(stored[0].data.internalNotes).toBeUndefined();
      // a draft: REST's published read does not find it
      expect((await t.request('GET', `/api/articles/${doc.documentId}`)).status).toBe(404);
    });

    it('publishes at once when asked', async () => {
      const res = await create({ title: 'Live' }, true);
      expect(res.body.errors).toBeUndefined();
      const doc = created(res);
      expect(doc.publishedAt).not.toBeNull();
      expect(await rows(doc.documentId)).toHaveLength(2);
      const rest = await t.request('GET', `/api/articles/${doc.documentId}`);
      expect(rest.body.data.title).toBe('Live');
    });

    if (flat) {
      it('publishes unless status: DRAFT', async () => {
        const res = await gql(CREATE, { data: { title: 'Default' } });
        expect(res.body.errors).toBeUndefined();
        expect(created(res).publishedAt).not.toBeNull();
        expect(await rows(created(res).documentId)).toHaveLength(2);
      });
    }

    it('creates a document in the locale asked', async () => {
      const res = await create({ title: 'Bonjour' }, false, 'fr');
      expect(res.body.errors).toBeUndefined();
      expect(created(res)).toMatchObject({ title: 'Bonjour', locale: 'fr' });
      expect((await rows(created(res).documentId)).map((r) => r.locale)).toEqual(['fr']);
    });

    it('answers validation errors as BAD_USER_INPUT and writes nothing', async () => {
      const before = await t.sql('articles').count({ n: '*' });
      // a draft may lack required attributes (as in Strapi); what is published is validated in full
      const cases = [
        { views: 1 },
        { title: 'x', views: -1 },
        { title: 'y', author: 'nope' },
        { title: 'z'.repeat(201) },
      ];
      for (const one of cases) {
        const res = await create(one, true);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({ createArticle: null });
        expect(res.body.errors[0].extensions.code, JSON.stringify(one)).toBe('BAD_USER_INPUT');
        expect(res.body.errors[0].extensions.error).toMatchObject({
          name: 'ValidationError',
          details: { errors: expect.any(Array) },
        });
      }
      const bad = await create({ title: 'z', blocks: [{ __typename: 'Nope', body: 'x' }] });
      expect(bad.body.errors[0].message).toMatch(/^Component not found\. expected one of: ComponentShared/);
      expect(await t.sql('articles').count({ n: '*' })).toEqual(before);
    });

    it('reads the created document back in one statement', async () => {
      t.queries.length = 0;
      const res = await create({ title: 'Counted', author, tags: [tag] });
      expect(res.body.errors).toBeUndefined();
      // after the write's transaction commits: the read-back, and nothing else
      const commit = t.queries.map((s) => /^commit/i.test(s.trim())).lastIndexOf(true);
      expect(commit).toBeGreaterThan(0);
      const after = t.queries.slice(commit + 1).filter((s) => !/strapi_api_tokens|up_roles|advisory/.test(s));
      expect(after).toHaveLength(1);
      expect(after[0]).toMatch(/^select/i);
    });
  });

  describe('updateX and deleteX', () => {
    const updated = (res: { body: any }) => q.data(res.body.data).updateArticle;

    // entity shape only: `publishedAt` in the data publishes and unpublishes (Strapi 5 has `status`)
    if (!flat) {
      it('updates a draft, publishes with publishedAt, keeps what is live current, unpublishes with null', async () => {
        const id = await createId({ title: 'U0' });
        const u1 = await gql(UPDATE, { id, data: { title: 'U1' } });
        expect(u1.body.data.updateArticle.data).toEqual({
          id,
          attributes: { title: 'U1', publishedAt: null, locale: 'en' },
        });
        const u2 = await gql(UPDATE, { id, data: { publishedAt: PUBLISHED_AT } });
        expect(u2.body.data.updateArticle.data.attributes.publishedAt).not.toBeNull();
        // Strapi 4 had one row: an update of a published entry changes what is live
        await gql(UPDATE, { id, data: { title: 'U3' } });
        expect((await t.request('GET', `/api/articles/${id}`)).body.data.title).toBe('U3');
        const u4 = await gql(UPDATE, { id, data: { publishedAt: null } });
        expect(u4.body.data.updateArticle.data.attributes.publishedAt).toBeNull();
        expect((await t.request('GET', `/api/articles/${id}`)).status).toBe(404);
        expect(await rows(id)).toHaveLength(1);
      });
    }

    // flat shape only: `status: DRAFT` writes the draft, the default (PUBLISHED) publishes it
    if (flat) {
      it('updates a draft with status: DRAFT and publishes with the default status', async () => {
        const id = await createId({ title: 'U0' });
        const u1 = await gql(UPDATE, { id, data: { title: 'U1' }, status: 'DRAFT' });
        expect(u1.body.errors).toBeUndefined();
        expect(updated(u1)).toEqual({ documentId: id, title: 'U1', publishedAt: null, locale: 'en' });
        expect((await t.request('GET', `/api/articles/${id}`)).status).toBe(404);
        const u2 = await gql(UPDATE, { id, data: { title: 'U2' } });
        expect(u2.body.errors).toBeUndefined();
        expect(updated(u2)).toMatchObject({ documentId: id, title: 'U2' });
        expect(updated(u2).publishedAt).not.toBeNull();
        expect((await t.request('GET', `/api/articles/${id}`)).body.data.title).toBe('U2');
        expect(await rows(id)).toHaveLength(2);
      });
    }

    it('answers an unknown documentId without an error (a delete echoes it in the flat shape)', async () => {
      const u = await gql(UPDATE, { id: 'nope', data: { title: 'x' } });
      expect(u.body).toEqual({ data: { updateArticle: flat ? null : { data: null } } });
      const d = await gql(`mutation { ${q.ids('deleteArticle', `${q.id}: "nope"`)} }`);
      expect(d.body).toEqual({ data: { deleteArticle: flat ? { documentId: 'nope' } : { data: null } } });
    });

    it('deletes and answers the deleted document (its documentId in the flat shape)', async () => {
      const id = await createId({ title: 'Gone' }, true);
      const res = await gql(
        flat
          ? `mutation { deleteArticle(documentId: "${id}") { documentId } }`
          : `mutation { deleteArticle(id: "${id}") { data { id attributes { title } } } }`,
      );
      expect(res.body).toEqual({
        data: { deleteArticle: flat ? { documentId: id } : { data: { id, attributes: { title: 'Gone' } } } },
      });
      expect(await rows(id)).toHaveLength(0);
    });

    it('runs root fields in order and two parallel updates of one document without a lost update', async () => {
      const id = await createId({ title: 'P0' });
      // flat: the draft is written (status: DRAFT); the entity shape writes its only row
      const status = flat ? ', status: DRAFT' : '';
      const serial = await gql(`mutation {
        a: updateArticle(${q.id}: "${id}", data: { title: "S1" }${status}) ${q.docs('title')}
        b: updateArticle(${q.id}: "${id}", data: { views: 7 }${status}) ${q.docs('title views')}
      }`);
      expect(serial.body.errors).toBeUndefined();
      expect(q.data(serial.body.data).b).toEqual({ title: 'S1', views: 7 });
      const [x, y] = await Promise.all([
        gql(UPDATE, flat ? { id, data: { title: 'X' }, status: 'DRAFT' } : { id, data: { title: 'X' } }),
        gql(`mutation { ${q.ids('updateArticle', `${q.id}: "${id}", data: { views: 9 }${status}`)} }`),
      ]);
      for (const r of [x, y]) expect(r.status).toBe(200);
      for (const r of [x, y]) expect(r.body.errors).toBeUndefined();
      const [row] = await rows(id);
      expect(row.data).toMatchObject({ title: 'X', views: 9 });
    });

    it('refuses a mutation over GET (405)', async () => {
      const m = encodeURIComponent(`mutation { ${q.ids('deleteAuthor', `${q.id}: "x"`)} }`);
      const res = await t.request('GET', `/graphql?query=${m}`);
      expect(res.status).toBe(405);
    });
  });

  describe('localizations and the single type', () => {
    // entity shape only: createXLocalization (Strapi 5 has none)
    if (!flat) {
      it('creates a localization of a document and writes in its locale', async () => {
        const id = await createId({ title: 'English' });
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
    }

    it('creates the single type on its first update, updates it and deletes it', async () => {
      const m = (op: string) => gql(`mutation { ${op} ${q.docs('siteName', true)} }`);
      const first = await m('updateGlobal(data: { siteName: "One" })');
      expect(first.body.errors).toBeUndefined();
      const one = q.data(first.body.data).updateGlobal;
      expect(one.siteName).toBe('One');
      const second = await m('updateGlobal(data: { siteName: "Two" })');
      expect(q.data(second.body.data).updateGlobal).toEqual({ documentId: one.documentId, siteName: 'Two' });
      expect((await t.sql('globals')).map((r) => r.data.siteName)).toEqual(['Two']);
      const gone = await gql(
        flat
          ? 'mutation { deleteGlobal { documentId } }'
          : 'mutation { deleteGlobal { data { attributes { siteName } } } }',
      );
      expect(gone.body).toEqual({
        data: { deleteGlobal: flat ? { documentId: one.documentId } : { data: { attributes: { siteName: 'Two' } } } },
      });
      expect(await t.sql('globals').count({ n: '*' })).toEqual([{ n: 0 }]);
    });
  });

  describe('authorization', () => {
    const createTag = `mutation { ${q.ids('createTag', 'data: { name: "t" }')} }`;

    it('refuses the Public role and read-only tokens, writing nothing', async () => {
      const before = await t.sql('tags').count({ n: '*' });
      expect((await gql(createTag, undefined, null)).body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
      const ro = await tokenFor('read-only');
      expect((await gql(createTag, undefined, ro)).body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
      expect(await t.sql('tags').count({ n: '*' })).toEqual(before);
    });

    it('lets a custom token do what it grants', async () => {
      const key = await tokenFor('custom', [`${TAG}.create`]);
      const res = await gql(createTag, undefined, key);
      expect(res.body.errors).toBeUndefined();
      const id = q.data(res.body.data).createTag.documentId as string;
      expect((await t.sql('tags').where({ document_id: id })).map((r) => r.data.name)).toContain('t');
      // (the blog has no deleteTag: its register disables it)
      const update = await gql(
        `mutation { ${q.ids('updateTag', `${q.id}: "${id}", data: { name: "n" }`)} }`,
        undefined,
        key,
      );
      expect(update.body.errors).toEqual([FORBIDDEN]);
    });

    it("lets a user's JWT do what its role grants", async () => {
      const jwt = await t.userJwt();
      const res = await gql(createTag, undefined, jwt);
      expect(res.body.errors).toEqual([FORBIDDEN]);
    });
  });

  // entity shape only: createXLocalization (Strapi 5 has none)
  if (!flat) {
    describe('createXLocalization errors', () => {
      it('refuses a locale already used and an unknown document, writing nothing', async () => {
        const id = await createId({ title: 'Once' });
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
  }
});
