/**
 * GraphQL reads on the blog fixture through HTTP, in Strapi 4's entity shape: root lists and
 * single documents, nested relations, media, components and dynamic zones, arguments at every
 * level, aliases and fragments, pagination meta, and one SQL statement per root field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const AUTHOR = 'api::author.author';

let t: TestApp;
const tags: string[] = [];
const files: number[] = [];
let author: string;
const articles: string[] = [];

/** POST a query; the answer's body. */
async function gql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await t.request('POST', '/graphql', { query, variables }, headers);
  return res;
}

/** Statements that read content (the API token's own, its lookup and its lastUsedAt write, excluded). */
const reads = (): string[] =>
  t.queries.filter((q) => /^(with|select)/i.test(q.trim()) && !/strapi_api_tokens|up_roles|advisory/.test(q));

beforeAll(async () => {
  t = await startApp();
  for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    tags.push((await t.app.documents(TAG).create({ data: { name } })).documentId as string);
  }
  for (let i = 0; i < 3; i++) {
    const file = await t.app.documents('plugin::upload.file').create({
      data: {
        name: `f${i}.png`,
        hash: `f_${i}`,
        ext: '.png',
        mime: 'image/png',
        size: 1,
        provider: 'local',
        url: `/uploads/f_${i}.png`,
        width: 10 + i,
      },
    });
    files.push(file.id as number);
  }
  author = (
    await t.app.documents(AUTHOR).create({
      data: {
        name: 'Ada',
        email: 'ada@x.io',
        socials: ['github', 'twitter', 'mastodon'].map((platform, i) => ({ platform, url: `u${i}` })),
      },
    })
  ).documentId as string;
  for (let i = 0; i < 12; i++) {
    const doc = await t.app.documents(ARTICLE).create({
      status: 'published',
      data: {
        title: `A${String(i).padStart(2, '0')}`,
        views: i,
        category: i % 2 ? 'news' : 'tutorial',
        internalNotes: 'secret',
        tags: tags.slice(0, (i % 5) + 1),
        author,
        cover: files[0],
        gallery: files,
        seo: { metaTitle: `m${i}`, keywords: [{ value: 'k1' }, { value: 'k2' }] },
        blocks: [
          { __component: 'shared.rich-text', body: 'one' },
          { __component: 'shared.quote', title: 'two', person: author },
        ],
      },
    });
    articles.push(doc.documentId as string);
  }
  // a draft only: never in a published read
  await t.app.documents(ARTICLE).create({ data: { title: 'Draft only', tags: [tags[0]], author } });
});

afterAll(async () => {
  await t?.close();
});

describe('root lists', () => {
  it('answers the entity shape with meta.pagination', async () => {
    const res = await gql(`{ articles(sort: "title:asc", pagination: { page: 2, pageSize: 5 }) {
      data { id attributes { title views category } }
      meta { pagination { total page pageSize pageCount } } } }`);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const { data, meta } = res.body.data.articles;
    expect(data.map((d: any) => d.attributes.title)).toEqual(['A05', 'A06', 'A07', 'A08', 'A09']);
    expect(data[0].id).toBe(articles[5]);
    expect(data[0].attributes).toEqual({ title: 'A05', views: 5, category: 'news' });
    expect(meta.pagination).toEqual({ total: 12, page: 2, pageSize: 5, pageCount: 3 });
  });

  it('reads nested relations, media, components and dynamic zones in one statement', async () => {
    t.queries.length = 0;
    const res = await gql(
      `query Q($n: Int) { articles(sort: "title:asc", pagination: { limit: $n }) {
      data { id attributes {
        title
        author { data { id attributes { name socials { platform url } } } }
        tags(sort: "name:desc", pagination: { limit: 2 }) { data { attributes { name } } }
        cover { data { id attributes { url width } } }
        gallery { data { id } }
        seo { metaTitle keywords { value } }
        blocks { __typename ... on ComponentSharedQuote { title person { data { attributes { name } } } } ...rich }
      } } } }
      fragment rich on ComponentSharedRichText { body }`,
      { n: 3 },
    );
    expect(res.body.errors).toBeUndefined();
    const a = res.body.data.articles.data[2];
    expect(a.attributes.title).toBe('A02');
    expect(a.attributes.author.data).toEqual({
      id: author,
      attributes: {
        name: 'Ada',
        socials: [
          { platform: 'github', url: 'u0' },
          { platform: 'twitter', url: 'u1' },
          { platform: 'mastodon', url: 'u2' },
        ],
      },
    });
    expect(a.attributes.tags.data.map((x: any) => x.attributes.name)).toEqual(['gamma', 'beta']);
    expect(a.attributes.cover.data).toEqual({
      id: String(files[0]),
      attributes: { url: '/uploads/f_0.png', width: 10 },
    });
    expect(a.attributes.gallery.data).toEqual(files.map((id) => ({ id: String(id) })));
    expect(a.attributes.seo).toEqual({ metaTitle: 'm2', keywords: [{ value: 'k1' }, { value: 'k2' }] });
    expect(a.attributes.blocks).toEqual([
      { __typename: 'ComponentSharedRichText', body: 'one' },
      { __typename: 'ComponentSharedQuote', title: 'two', person: { data: { attributes: { name: 'Ada' } } } },
    ]);
    expect(reads()).toHaveLength(1);
  });
});

describe('aliases, arguments and statements', () => {
  it('reads two aliases of one relation with different arguments, still one statement per root field', async () => {
    t.queries.length = 0;
    const res = await gql(`{
      first: articles(sort: "title:asc", pagination: { limit: 1 }) { data { attributes {
        a: tags(sort: "name:asc", pagination: { limit: 1 }) { data { attributes { name } } }
        b: tags(sort: "name:desc", filters: { name: { ne: "alpha" } }) { data { attributes { n: name } } }
      } } }
      last: articles(sort: "title:desc", pagination: { limit: 1 }) { data { attributes { title } } }
      tags(filters: { name: { in: ["beta", "gamma"] } }, sort: "name") { data { attributes { name } } }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(Object.keys(res.body.data)).toEqual(['first', 'last', 'tags']);
    const a = res.body.data.first.data[0].attributes;
    expect(a.a.data).toEqual([{ attributes: { name: 'alpha' } }]);
    expect(a.b.data).toEqual([]);
    expect(res.body.data.last.data[0].attributes.title).toBe('A11');
    expect(res.body.data.tags.data.map((x: any) => x.attributes.name)).toEqual(['beta', 'gamma']);
    expect(reads()).toHaveLength(3);
  });

  it('keeps one statement whatever the page size and nesting (25 articles, every list populated)', async () => {
    t.queries.length = 0;
    const res = await gql(`{ articles(pagination: { limit: 25 }) { data { id attributes {
      tags { data { attributes { name articles { data { attributes { title } } } } } }
      gallery { data { attributes { url } } } seo { keywords { value } } blocks { __typename }
    } } meta { pagination { total } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.articles.data).toHaveLength(12);
    expect(res.body.data.articles.meta.pagination.total).toBe(12);
    expect(reads()).toHaveLength(1);
  });

  it('counts only when meta asks for total or pageCount', async () => {
    t.queries.length = 0;
    await gql(`{ articles { data { id } meta { pagination { page pageSize } } } }`);
    expect(reads().join('\n')).not.toMatch(/count\(\*\)/);
    t.queries.length = 0;
    const res = await gql(`{ articles { meta { pagination { total pageCount } } } }`);
    expect(res.body.data.articles.meta.pagination).toEqual({ total: 12, pageCount: 2 });
    expect(reads()).toHaveLength(1);
    expect(reads()[0]).toMatch(/count\(\*\)/);
  });

  it('applies @skip, @include and __typename at every level', async () => {
    const res = await gql(
      `query Q($no: Boolean!) { articles(pagination: { limit: 1 }, sort: "title") { __typename
        data { __typename id @skip(if: true) attributes { __typename title @include(if: $no) views } } } }`,
      { no: false },
    );
    expect(res.body.data.articles).toEqual({
      __typename: 'ArticleEntityResponseCollection',
      data: [{ __typename: 'ArticleEntity', attributes: { __typename: 'Article', views: 0 } }],
    });
  });

  it('answers many root fields in their order, each one statement, errors in field order', async () => {
    t.queries.length = 0;
    const fields = articles.map((id, i) => `a${i}: article(id: "${id}") { data { attributes { title } } }`);
    const bad = '  x: articles(sort: "nope") { data { id } }  y: articles(sort: "nada") { data { id } }';
    const res = await gql(`{ ${fields.join(' ')} ${bad} }`);
    expect(Object.keys(res.body.data)).toEqual([...articles.map((_, i) => `a${i}`), 'x', 'y']);
    expect(articles.map((_, i) => res.body.data[`a${i}`].data.attributes.title)).toEqual(
      articles.map((_, i) => `A${String(i).padStart(2, '0')}`),
    );
    expect(res.body.errors.map((e: any) => e.message)).toEqual(['Invalid key nope', 'Invalid key nada']);
    expect(reads()).toHaveLength(12);
  });

  it('answers a single document by id, and null for an unknown id', async () => {
    const res = await gql(
      `query($id: ID) { article(id: $id) { data { id attributes { title } } }
      none: article(id: "nope") { data { id } } }`,
      { id: articles[3] },
    );
    expect(res.body).toEqual({
      data: { article: { data: { id: articles[3], attributes: { title: 'A03' } } }, none: { data: null } },
    });
  });

  it("reads the plugins' types: locales, roles (never their grants) and files", async () => {
    const res = await gql(`{ i18NLocales(sort: "code") { data { id attributes { code isDefault } } }
      usersPermissionsRoles(filters: { type: { eq: "public" } }) { data { attributes { name type } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.i18NLocales.data.map((l: any) => l.attributes)).toEqual([
      { code: 'en', isDefault: true },
      { code: 'fr', isDefault: false },
    ]);
    expect(res.body.data.i18NLocales.data[0].id).toMatch(/^\d+$/);
    expect(res.body.data.usersPermissionsRoles.data).toEqual([{ attributes: { name: 'Public', type: 'public' } }]);
  });

  it('reads files by their id', async () => {
    const res = await gql(`{ uploadFile(id: "${files[1]}") { data { id attributes { name } } } }`);
    expect(res.body.data.uploadFile.data).toEqual({ id: String(files[1]), attributes: { name: 'f1.png' } });
  });

  it('paginates repeatable components and nested lists with the defaults (10) and caps them at maxLimit', async () => {
    const res = await gql(`{ authors { data { attributes {
      socials(pagination: { limit: 2 }) { platform }
      articles(pagination: { limit: -1 }, sort: "title") { data { id } }
    } } }
    again: authors { data { attributes { all: articles(sort: "title") { data { id } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    const a = res.body.data.authors.data[0].attributes;
    expect(a.socials).toEqual([{ platform: 'github' }, { platform: 'twitter' }]);
    expect(a.articles.data).toHaveLength(12);
    expect(res.body.data.again.data[0].attributes.all.data).toHaveLength(10);
  });
});

describe('filters', () => {
  const titles = (res: any): string[] => res.body.data.articles.data.map((a: any) => a.attributes.title);

  it('go through relations and components, with and/or/not and the id as the documentId', async () => {
    const res = await gql(`{ articles(sort: "title", filters: {
      author: { name: { eq: "Ada" } },
      or: [{ seo: { metaTitle: { in: ["m3", "m4", "m5"] } } }, { id: { eq: "${articles[9]}" } }],
      not: { views: { eq: 4 } } }) { data { attributes { title } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(titles(res)).toEqual(['A03', 'A05', 'A09']);
    const tagged = await gql(`{ tags(sort: "name", filters: { articles: { title: { eq: "A01" } } }) {
      data { attributes { name } } } }`);
    expect(tagged.body.data.tags.data.map((x: any) => x.attributes.name)).toEqual(['alpha', 'beta']);
  });

  it('take variables and every operator of a scalar filter', async () => {
    const res = await gql(
      `query($f: ArticleFiltersInput) { articles(filters: $f, sort: "title") { data { attributes { title } } } }`,
      {
        f: {
          title: { startsWith: 'A0', notContainsi: 'a08', ne: 'A02' },
          views: { between: [1, 9], notIn: [5] },
          category: { eqi: 'NEWS' },
          createdAt: { notNull: true },
        },
      },
    );
    expect(res.body.errors).toBeUndefined();
    expect(titles(res)).toEqual(['A01', 'A03', 'A07', 'A09']);
  });

  it('filter and sort nested lists of components and media', async () => {
    const res = await gql(`{ authors { data { attributes {
      socials(filters: { platform: { ne: "twitter" } }, sort: "url:desc") { url } } } } }`);
    expect(res.body.data.authors.data[0].attributes.socials).toEqual([{ url: 'u2' }, { url: 'u0' }]);
    const gallery = await gql(`{ articles(pagination: { limit: 1 }) { data { attributes {
      gallery(filters: { width: { gte: 11 } }, sort: "width:desc", pagination: { limit: 1 }) {
        data { attributes { name } } } } } } }`);
    expect(gallery.body.data.articles.data[0].attributes.gallery.data).toEqual([{ attributes: { name: 'f2.png' } }]);
  });
});

describe('publication state', () => {
  it('never shows a draft through a published parent, and shows drafts when asked', async () => {
    const live = await gql(`{ tags(filters: { name: { eq: "alpha" } }) { data { attributes {
      articles(pagination: { limit: 50 }) { data { attributes { title } } } } } } }`);
    const titles = live.body.data.tags.data[0].attributes.articles.data.map((a: any) => a.attributes.title);
    expect(titles).not.toContain('Draft only');
    expect(titles).toHaveLength(12);
    const preview = await gql(`{ tags(filters: { name: { eq: "alpha" } }) { data { attributes {
      articles(publicationState: PREVIEW, pagination: { limit: 50 }) { data { attributes { title } } } } } } }`);
    const drafts = preview.body.data.tags.data[0].attributes.articles.data.map((a: any) => a.attributes.title);
    expect(drafts).toContain('Draft only');
    const root = await gql(`{ articles(publicationState: PREVIEW, filters: { title: { eq: "Draft only" } }) {
      data { attributes { title } } } }`);
    expect(root.body.data.articles.data).toEqual([{ attributes: { title: 'Draft only' } }]);
  });
});

describe('errors', () => {
  it('refuses private attributes: not in the output type (400), refused in filters (BAD_USER_INPUT)', async () => {
    const out = await gql(`{ articles { data { attributes { internalNotes } } } }`);
    expect(out.status).toBe(400);
    expect(out.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const filter = await gql(`{ articles(filters: { internalNotes: { eq: "secret" } }) { data { id } } }`);
    expect(filter.status).toBe(200);
    expect(filter.body.data).toEqual({ articles: null });
    expect(filter.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(filter.body.errors[0].path).toBeUndefined();
  });

  it('answers a parse error 400 GRAPHQL_PARSE_FAILED', async () => {
    const res = await gql('{ articles { ');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_PARSE_FAILED');
  });

  it('refuses page and offset pagination together (STRAPI_PAGINATION_ERROR)', async () => {
    const res = await gql(`{ articles(pagination: { page: 1, limit: 2 }) { data { id } } }`);
    expect(res.status).toBe(200);
    expect(res.body.errors[0]).toEqual({
      message: 'Cannot use both page & offset pagination in the same query',
      extensions: {
        error: {
          name: 'PaginationError',
          message: 'Cannot use both page & offset pagination in the same query',
          details: {},
        },
        code: 'STRAPI_PAGINATION_ERROR',
      },
    });
  });

  it('refuses an unknown sort field (BAD_USER_INPUT)', async () => {
    const res = await gql(`{ articles(sort: "nope") { data { id } } }`);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('refuses a selection deeper than depthLimit (10) with 400', async () => {
    const deep = (n: number): string =>
      n === 0 ? 'name' : `articles { data { attributes { tags { data { attributes { ${deep(n - 1)} } } } } } }`;
    // depth: authors 0, data 1, attributes 2, then 6 levels per step
    const ok = await gql(`{ tags { data { attributes { articles { data { attributes { title } } } } } } }`);
    expect(ok.status).toBe(200);
    const res = await gql(`{ tags { data { attributes { ${deep(2)} } } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe("'' exceeds maximum operation depth of 10");
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('refuses more items than amountLimit (100) in one list, aliases added up (400 BAD_USER_INPUT)', async () => {
    const res = await gql(`{ a: articles(pagination: { limit: 60 }) { data { id } }
      b: articles(pagination: { limit: 60 }) { data { id } } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const mixed =
      await gql(`{ articles(pagination: { limit: 95 }) { data { id } } tags(pagination: { limit: 5 }) { data { id } }
      author(id: "x") { data { id } } }`);
    expect(mixed.status).toBe(400);
    const nested = await gql(`{ articles { data { attributes {
      a: tags(pagination: { limit: 60 }) { data { id } } b: tags(pagination: { limit: 60 }) { data { id } } } } } }`);
    expect(nested.status).toBe(400);
  });
});

describe('HTTP', () => {
  it('answers GET ?query= and refuses a mutation over GET (405)', async () => {
    const q = encodeURIComponent(
      'query($n: Int) { tags(pagination: { limit: $n }, sort: "name") { data { attributes { name } } } }',
    );
    const res = await t.request('GET', `/graphql?query=${q}&variables=${encodeURIComponent('{"n":1}')}`);
    expect(res.status).toBe(200);
    expect(res.body.data.tags.data).toEqual([{ attributes: { name: 'alpha' } }]);
    // a valid mutation (an invalid one is refused first, 400, as Apollo validates before this check)
    const mutation = encodeURIComponent('mutation { deleteAuthor(id: "x") { data { id } } }');
    const m = await t.request('GET', `/graphql?query=${mutation}`);
    expect(m.status).toBe(405);
    expect(m.body.errors[0].message).toBe('GET supports only query operation');
  });

  it('refuses a form or text POST (no cross-site form can run an operation)', async () => {
    const res = await t.request('POST', '/graphql', 'query=%7B__typename%7D', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    const text = await t.request('POST', '/graphql', '{"query":"{__typename}"}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
  });

  it('answers introspection through execute', async () => {
    const res = await gql(`{ __schema { queryType { name } } __typename }`);
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } }, __typename: 'Query' } });
  });

  it('answers a bad token 401 with the REST error body, as Strapi 4', async () => {
    const res = await gql('{ __typename }', undefined, { authorization: 'Bearer nope' });
    expect(res.status).toBe(401);
    expect(res.body.error.name).toBe('UnauthorizedError');
  });
});

describe('drafts, locales and single types', () => {
  it("answers a draft's missing required value as GraphQL does: its nullable parent null, an error", async () => {
    const draft = await t.app.documents(ARTICLE).create({ data: { title: '', views: 777 } });
    await t
      .sql('articles')
      .where({ document_id: draft.documentId })
      .update({ data: { views: 777 } });
    const res = await gql(`{ articles(publicationState: PREVIEW, filters: { views: { eq: 777 } }) {
      data { id attributes { title views blocks { ... on ComponentSharedQuote { title } } } } } }`);
    expect(res.status).toBe(200);
    expect(res.body.data.articles.data).toEqual([{ id: draft.documentId, attributes: null }]);
    expect(res.body.errors[0].message).toBe('Cannot return null for non-nullable field Article.title.');
    expect(res.body.errors[0].path).toEqual(['articles', 'data', 0, 'attributes', 'title']);
  });

  it('goes through execute for drafts with the same answer for dynamic zones', async () => {
    const res = await gql(`{ articles(publicationState: PREVIEW, sort: "title", pagination: { limit: 1 }) {
      data { attributes { title blocks { ... on ComponentSharedQuote { t: title } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.articles.data[0].attributes).toEqual({ title: 'A00', blocks: [{}, { t: 'two' }] });
  });

  it('reads one locale, or every locale with "all"', async () => {
    await t.request('PUT', `/api/articles/${articles[0]}?locale=fr`, { data: { title: 'Un' } });
    await t.request('POST', `/api/articles/${articles[0]}/actions/publish?locale=fr`);
    const fr = await gql(`{ articles(locale: "fr") { data { id attributes { title locale } } } }`);
    expect(fr.body.data.articles.data).toEqual([{ id: articles[0], attributes: { title: 'Un', locale: 'fr' } }]);
    const all = await gql(`{ articles(locale: "all", pagination: { limit: 50 }) { meta { pagination { total } } } }`);
    expect(all.body.data.articles.meta.pagination.total).toBe(13);
    const one = await gql(`{ article(id: "${articles[0]}", locale: "fr") { data { attributes {
      title localizations { data { attributes { locale title } } } } } } }`);
    expect(one.body.data.article.data.attributes).toEqual({
      title: 'Un',
      localizations: { data: [{ attributes: { locale: 'en', title: 'A00' } }] },
    });
  });

  it('filters through localizations: another locale of the same document matches, never its own', async () => {
    await t.request('PUT', `/api/articles/${articles[0]}?locale=fr`, { data: { title: 'Un' } });
    await t.request('POST', `/api/articles/${articles[0]}/actions/publish?locale=fr`);
    const list = (locale: string, title: string) =>
      gql(`{ articles(locale: "${locale}", filters: { localizations: { title: { eq: "${title}" } } }) {
        data { id attributes { title locale } } } }`);
    t.queries.length = 0;
    const en = await list('en', 'Un');
    expect(en.body.errors).toBeUndefined();
    expect(en.body.data.articles.data).toEqual([{ id: articles[0], attributes: { title: 'A00', locale: 'en' } }]);
    expect(reads()).toHaveLength(1);
    expect(reads()[0]).toContain('"_vf1"."locale" IS DISTINCT FROM');
    expect((await list('en', 'A00')).body.data.articles.data).toEqual([]);
    const fr = await list('fr', 'A00');
    expect(fr.body.data.articles.data).toEqual([{ id: articles[0], attributes: { title: 'Un', locale: 'fr' } }]);
    const combined = await gql(`{ articles(locale: "en", sort: "title", filters: {
      or: [{ localizations: { title: { eq: "Un" } } }, { title: { eq: "A05" } }],
      not: { localizations: { title: { eq: "nope" } } } }) { data { attributes { title } } } }`);
    expect(combined.body.data.articles.data).toEqual([
      { attributes: { title: 'A00' } },
      { attributes: { title: 'A05' } },
    ]);
  });

  it('reads a single type', async () => {
    const none = await gql('{ global { data { id } } }');
    expect(none.body).toEqual({ data: { global: { data: null } } });
    await t.request('PUT', '/api/global', { data: { siteName: 'Site', defaultSeo: { metaTitle: 'Home' } } });
    const res = await gql('{ global { data { attributes { siteName defaultSeo { metaTitle } } } } }');
    expect(res.body.data.global.data.attributes).toEqual({ siteName: 'Site', defaultSeo: { metaTitle: 'Home' } });
  });
});

describe('windows of shared renders', () => {
  it("cuts a nested window from each document's own related documents, in their stored order", async () => {
    t.queries.length = 0;
    const res = await gql(`{ articles(sort: "title:asc", pagination: { limit: 5 }) { data { attributes {
      title tags(pagination: { start: 1, limit: 2 }) { data { attributes { name } } }
      gallery(pagination: { page: 2, pageSize: 2 }) { data { id } } } } } }`);
    expect(res.body.errors).toBeUndefined();
    const names = res.body.data.articles.data.map((a: any) =>
      a.attributes.tags.data.map((x: any) => x.attributes.name),
    );
    // article i holds the first (i % 5) + 1 tags
    expect(names).toEqual([[], ['beta'], ['beta', 'gamma'], ['beta', 'gamma'], ['beta', 'gamma']]);
    expect(res.body.data.articles.data[0].attributes.gallery.data).toEqual([{ id: String(files[2]) }]);
    expect(reads()).toHaveLength(1);
    expect(reads()[0]).toMatch(/MATERIALIZED/);
  });
});
