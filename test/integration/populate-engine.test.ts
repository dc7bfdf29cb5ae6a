/**
 * What the query engine answers that REST never asks (GraphQL will): populate nodes under an
 * output key of their own (aliases), a window of a populated list, and its total — each read
 * still one statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import type { PopulateTree } from '../../core/query/types.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import { resolveSort } from '../../core/query/sort.ts';
import { startApp } from '../helpers/app.ts';
import { bareQualified } from '../helpers/sql-text.ts';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const AUTHOR = 'api::author.author';

let t: TestApp;
const tags: string[] = [];
const files: number[] = [];
let author: string;
const articles: Array<Record<string, any>> = [];

const names = (docs: Array<Record<string, any>>): string[] => docs.map((d) => d.name ?? d.title);
const filters = (uid: string, raw: unknown) => resolveFilters(t.app.registry, uid, raw);
const sort = (uid: string, raw: unknown) => resolveSort(t.app.registry, uid, raw);

/** The articles in title order (drafts, the document service's default), populated with `populate`. */
const read = async (populate: PopulateTree, limit?: number): Promise<any[]> =>
  t.app.documents(ARTICLE).findMany({
    populate,
    sort: sort(ARTICLE, 'title'),
    fields: ['title'],
    pagination: limit ? { start: 0, limit, style: 'offset', withCount: false } : undefined,
  });
/** One document of `uid`, as the document service answers it (drafts). */
const one = async (uid: string, documentId: string, params: Record<string, unknown>): Promise<any> =>
  t.app.documents(uid).findOne({ documentId, ...params });

beforeAll(async () => {
  t = await startApp();
  for (const name of ['alpha', 'beta', 'gamma', 'delta', 'epsilon']) {
    tags.push((await t.app.documents(TAG).create({ data: { name } })).documentId as string);
  }
  for (let i = 0; i < 4; i++) {
    const file = await t.app.documents('plugin::upload.file').create({
      data: {
        name: `f${i}.png`,
        hash: `f_${i}`,
        ext: '.png',
        mime: 'image/png',
        size: 1,
        provider: 'local',
        url: `/uploads/f_${i}.png`,
      },
    });
    files.push(file.id as number);
  }
  author = (
    await t.app.documents(AUTHOR).create({
      data: {
        name: 'Ada',
        email: 'ada@x.io',
        socials: ['github', 'twitter', 'mastodon', 'github'].map((platform, i) => ({ platform, url: `u${i}` })),
      },
    })
  ).documentId as string;
  const data = [
    {
      title: 'A0',
      tags,
      author,
      gallery: files,
      seo: { metaTitle: 'm', keywords: [{ value: 'k1' }, { value: 'k2' }, { value: 'k3' }] },
      blocks: [
        { __component: 'shared.rich-text', body: 'one' },
        { __component: 'shared.quote', title: 'two' },
        { __component: 'shared.rich-text', body: 'three' },
        { __component: 'shared.media', file: files[0] },
      ],
    },
    { title: 'A1', tags: [tags[4], tags[3], tags[2]], author },
    { title: 'A2', tags: [tags[1]] },
  ];
  for (const d of data) {
    articles.push(await t.app.documents(ARTICLE).create({ data: d }));
  }
});
afterAll(async () => {
  await t?.close();
});

describe('aliases', () => {
  it('two aliases of one relation with different arguments are two sub-selects, each under its own key', async () => {
    const [a0, a1, a2] = await read({
      firstTwo: { attribute: 'tags', sort: sort(TAG, 'name'), pagination: { start: 0, limit: 2 }, fields: ['name'] },
      late: { attribute: 'tags', filters: filters(TAG, { name: { $in: ['delta', 'epsilon', 'beta'] } }) },
    });
    expect(Object.keys(a0)).toEqual(['id', 'documentId', 'title', 'firstTwo', 'late']);
    expect(a0.firstTwo).toEqual([
      { id: expect.any(Number), documentId: tags[0], name: 'alpha' },
      { id: expect.any(Number), documentId: tags[1], name: 'beta' },
    ]);
    // the stored order, filtered
    expect(names(a0.late)).toEqual(['beta', 'delta', 'epsilon']);
    expect(names(a1.firstTwo)).toEqual(['delta', 'epsilon']);
    expect(names(a1.late)).toEqual(['epsilon', 'delta']);
    expect(names(a2.firstTwo)).toEqual(['beta']);
    expect(names(a2.late)).toEqual(['beta']);
  });

  it('aliases of a relation the page shares render their own fields (a shared render per alias)', async () => {
    t.queries.length = 0;
    const docs = await read({
      byName: { attribute: 'author', fields: ['name'] },
      byEmail: { attribute: 'author', fields: ['email'] },
      tags: { fields: ['name'] },
      someTags: { attribute: 'tags', fields: ['name'], pagination: { start: 1, limit: 1 } },
    });
    expect(t.queries).toHaveLength(1);
    // the page, the two authors' renders and the two tags' (the window is cut from each article's own)
    expect(t.queries[0].match(/ AS MATERIALIZED \(/g)).toHaveLength(5);
    expect(docs[0].byName).toEqual({ id: expect.any(Number), documentId: author, name: 'Ada' });
    expect(docs[0].byEmail).toEqual({ id: expect.any(Number), documentId: author, email: 'ada@x.io' });
    expect(names(docs[0].tags)).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
    expect(names(docs[0].someTags)).toEqual(['beta']);
    expect(names(docs[1].someTags)).toEqual(['delta']);
    expect(docs[2].byName).toBeNull();
    expect(docs[2].someTags).toEqual([]);
  });

  it('components and dynamic zones can be aliased too, and inside them their attributes', async () => {
    const [a0] = await read({
      meta: {
        attribute: 'seo',
        fields: ['metaTitle'],
        populate: { twoKeywords: { attribute: 'keywords', pagination: { start: 1, limit: 2 } } },
      },
      quotes: { attribute: 'blocks', on: { 'shared.quote': {} } },
    });
    expect(a0.meta).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      metaTitle: 'm',
      twoKeywords: [
        { id: expect.any(Number), documentId: expect.any(String), value: 'k2' },
        { id: expect.any(Number), documentId: expect.any(String), value: 'k3' },
      ],
    });
    expect(a0.quotes).toEqual([expect.objectContaining({ __component: 'shared.quote', title: 'two' })]);
  });
});

describe('pagination inside populate', () => {
  it('cuts an owning to-many relation in its stored order, or in its own sort after its filters', async () => {
    const window = async (start: number, limit: number | null) =>
      names((await read({ tags: { pagination: { start, limit } } }))[0].tags);
    expect(await window(0, 2)).toEqual(['alpha', 'beta']);
    expect(await window(1, 2)).toEqual(['beta', 'gamma']);
    expect(await window(3, null)).toEqual(['delta', 'epsilon']);
    expect(await window(5, 2)).toEqual([]);
    expect(await window(0, 0)).toEqual([]);
    const [a0] = await read({
      tags: {
        filters: filters(TAG, { name: { $ne: 'gamma' } }),
        sort: sort(TAG, 'name:desc'),
        pagination: { start: 1, limit: 2 },
      },
    });
    expect(names(a0.tags)).toEqual(['delta', 'beta']);
  });

  it('cuts inverse sides (manyToMany and oneToMany) in their order', async () => {
    const [gamma]: any[] = await t.app.documents(TAG).findMany({
      filters: filters(TAG, { name: 'gamma' }),
      populate: {
        first: { attribute: 'articles', pagination: { start: 0, limit: 1 } },
        rest: { attribute: 'articles', pagination: { start: 1, limit: 5 } },
      },
    });
    expect(gamma.first.map((a: any) => a.title)).toEqual(['A0']);
    expect(gamma.rest.map((a: any) => a.title)).toEqual(['A1']);
    const ada = await one(AUTHOR, author, {
      populate: { articles: { sort: sort(ARTICLE, 'title:desc'), pagination: { start: 0, limit: 1 } } },
    });
    expect(ada.articles.map((a: any) => a.title)).toEqual(['A1']);
  });

  it('cuts multiple media, repeatable components, dynamic zones and localizations', async () => {
    const [a0] = await read({
      gallery: { pagination: { start: 1, limit: 2 } },
      blocks: { pagination: { start: 1, limit: 2 } },
      seo: { populate: { keywords: { pagination: { start: 2, limit: null } } } },
    });
    expect(a0.gallery.map((f: any) => f.id)).toEqual([files[1], files[2]]);
    expect(a0.blocks.map((b: any) => b.title ?? b.body)).toEqual(['two', 'three']);
    expect(a0.seo.keywords.map((k: any) => k.value)).toEqual(['k3']);
    // only the zone's listed components are counted and cut
    const [again] = await read({ blocks: { on: { 'shared.rich-text': {} }, pagination: { start: 1, limit: 5 } } });
    expect(again.blocks.map((b: any) => b.body)).toEqual(['three']);
    const ada = await one(AUTHOR, author, { populate: { socials: { pagination: { start: 3, limit: 9 } } } });
    expect(ada.socials.map((s: any) => s.url)).toEqual(['u3']);
    const documentId = articles[0].documentId as string;
    await t.app.documents(ARTICLE).update({ documentId, locale: 'fr', data: { title: 'A0 fr' } });
    const fr = await one(ARTICLE, articles[0].documentId, {
      fields: ['title'],
      populate: {
        shown: {
          attribute: 'localizations',
          fields: ['title', 'locale'],
          pagination: { start: 0, limit: 1 },
          total: true,
        },
        skipped: { attribute: 'localizations', pagination: { start: 1, limit: 1 }, total: true },
      },
    });
    const frDoc = { id: expect.any(Number), documentId, title: 'A0 fr', locale: 'fr' };
    expect(fr.shown).toEqual({ nodes: [frDoc], total: 1 });
    expect(fr.skipped).toEqual({ nodes: [], total: 1 });
  });
});

describe('total', () => {
  it('answers { nodes, total }: the window, and how many match its filters whatever the window', async () => {
    const [a0, a1, a2] = await read({
      tags: {
        fields: ['name'],
        filters: filters(TAG, { name: { $ne: 'alpha' } }),
        pagination: { start: 0, limit: 2 },
        total: true,
      },
      gallery: { fields: ['name'], total: true },
      blocks: { pagination: { start: 0, limit: 1 }, total: true },
    });
    expect({ ...a0.tags, nodes: names(a0.tags.nodes) }).toEqual({ nodes: ['beta', 'gamma'], total: 4 });
    expect(a0.gallery.total).toBe(4);
    expect(a0.gallery.nodes).toHaveLength(4);
    const firstBlock = expect.objectContaining({ __component: 'shared.rich-text', body: 'one' });
    expect(a0.blocks).toEqual({ nodes: [firstBlock], total: 4 });
    expect({ ...a1.tags, nodes: names(a1.tags.nodes) }).toEqual({ nodes: ['epsilon', 'delta'], total: 3 });
    expect(a2.tags.total).toBe(1);
    expect(a2.gallery).toEqual({ nodes: [], total: 0 });
    expect(a2.blocks).toEqual({ nodes: [], total: 0 });
    const ada = await one(AUTHOR, author, {
      populate: { socials: { pagination: { start: 0, limit: 1 }, total: true } },
    });
    expect(ada.socials.total).toBe(4);
    expect(ada.socials.nodes).toHaveLength(1);
  });
});

describe('cost and checks', () => {
  it('a read with aliases, windows and totals at every level is one statement, whatever the page size', async () => {
    const populate: PopulateTree = {
      few: {
        attribute: 'tags',
        pagination: { start: 0, limit: 1 },
        total: true,
        populate: { articles: { pagination: { start: 0, limit: 2 }, total: true } },
      },
      many: {
        attribute: 'tags',
        sort: sort(TAG, 'name'),
        populate: { back: { attribute: 'articles', fields: ['title'] } },
      },
      writer: {
        attribute: 'author',
        populate: { socials: { pagination: { start: 1, limit: 1 } }, articles: { total: true } },
      },
      gallery: { pagination: { start: 0, limit: 2 } },
      blocks: { total: true, on: { 'shared.media': { populate: { file: {} } }, 'shared.rich-text': {} } },
    };
    for (const limit of [1, 3]) {
      t.queries.length = 0;
      const docs = await read(populate, limit);
      expect(docs).toHaveLength(limit);
      expect(t.queries).toHaveLength(1);
    }
    const [a0] = await read(populate);
    expect(a0.few.total).toBe(5);
    expect(a0.few.nodes[0].articles).toEqual({ nodes: [expect.objectContaining({ title: 'A0' })], total: 1 });
    expect(names(a0.many[0].back)).toEqual(['A0']);
    expect(a0.writer.socials.map((s: any) => s.url)).toEqual(['u1']);
    expect(a0.writer.articles.total).toBe(2);
    expect(a0.blocks.total).toBe(3);
    expect(a0.blocks.nodes[2].file.id).toBe(files[0]);
  });

  it('refuses a window or a total on a single value, a negative window, and an alias of no attribute', async () => {
    const refused = async (populate: PopulateTree) => {
      const err = await read(populate).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ name: 'ValidationError', details: { param: 'populate' } });
      return (err as Error).message;
    };
    const notList = (name: string) => `${name} is not a list: pagination and total apply to lists only`;
    expect(await refused({ author: { pagination: { start: 0, limit: 1 } } })).toBe(notList('author'));
    expect(await refused({ seo: { total: true } })).toBe(notList('seo'));
    expect(await refused({ tags: { pagination: { start: -1, limit: 1 } } })).toMatch(/^Invalid pagination of tags/);
    expect(await refused({ x: { attribute: 'nope' } })).toBe('Invalid key nope');
  });

  it('names every table, alias and column quoted in the whole statement, list and single reads alike', async () => {
    const paths = [
      '/api/articles?populate=*&filters[title][$contains]=A&filters[tags][name][$eq]=alpha&sort=author.name,title',
      '/api/articles?populate[tags][populate][articles][fields][0]=title&pagination[withCount]=true&_q=A',
      `/api/articles/${articles[0].documentId}?populate[localizations]=*&populate[blocks]=*&status=draft`,
      '/api/tags?populate[articles][filters][author][name][$null]=false&populate[articles][sort]=title',
    ];
    for (const path of paths) {
      t.queries.length = 0;
      const res = await t.request('GET', path);
      expect(res.status).toBe(200);
      const reads = t.queries.filter((q) => /^(with|select)/i.test(q));
      expect(reads.length).toBeGreaterThan(0);
      for (const sql of reads) expect(bareQualified(sql)).toEqual([]);
    }
  });

  it('REST still refuses pagination inside populate', async () => {
    const res = await t.request('GET', '/api/articles?populate[tags][pagination][limit]=1');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid key pagination at tags');
  });
});
