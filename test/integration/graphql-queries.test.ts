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

/** Statements that read content (the API token's lookups excluded). */
const reads = (): string[] =>
  t.queries.filter((q) => /^(with|select)/i.test(q.trim()) && !/strapi_api_tokens|up_roles/.test(q));

beforeAll(async () => {
  t = await startApp();
  for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    tags.push((await t.app.documents(TAG).create({ data: { name } })).documentId as string);
  }
  for (let i = 0; i < 3; i++) {
    const file = await t.app.documents('plugin::upload.file').create({
      data: { name: `f${i}.png`, hash: `f_${i}`, ext: '.png', mime: 'image/png', size: 1, provider: 'local', url: `/uploads/f_${i}.png`, width: 10 + i },
    });
    files.push(file.id as number);
  }
  author = (
    await t.app.documents(AUTHOR).create({
      data: { name: 'Ada', email: 'ada@x.io', socials: ['github', 'twitter', 'mastodon'].map((platform, i) => ({ platform, url: `u${i}` })) },
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
    const res = await gql(`query Q($n: Int) { articles(sort: "title:asc", pagination: { limit: $n }) {
      data { id attributes {
        title
        author { data { id attributes { name socials { platform url } } } }
        tags(sort: "name:desc", pagination: { limit: 2 }) { data { attributes { name } } }
        cover { data { id attributes { url width } } }
        gallery { data { id } }
        seo { metaTitle keywords { value } }
        blocks { __typename ... on ComponentSharedQuote { title person { data { attributes { name } } } } ...rich }
      } } } }
      fragment rich on ComponentSharedRichText { body }`, { n: 3 });
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
    expect(a.attributes.cover.data).toEqual({ id: String(files[0]), attributes: { url: '/uploads/f_0.png', width: 10 } });
    expect(a.attributes.gallery.data).toEqual(files.map((id) => ({ id: String(id) })));
    expect(a.attributes.seo).toEqual({ metaTitle: 'm2', keywords: [{ value: 'k1' }, { value: 'k2' }] });
    expect(a.attributes.blocks).toEqual([
      { __typename: 'ComponentSharedRichText', body: 'one' },
      { __typename: 'ComponentSharedQuote', title: 'two', person: { data: { attributes: { name: 'Ada' } } } },
    ]);
    expect(reads()).toHaveLength(1);
  });
});
