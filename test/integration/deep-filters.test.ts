import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qs from 'qs';
import type { TestApp } from '../helpers/app.ts';
import { FILE_UID } from '../../core/content-types/types.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import { ROOT, startApp } from '../helpers/app.ts';
import { readsDocuments, recordStatements, type Statement } from '../helpers/plans.ts';

/**
 * Filters and sort through relations (both sides), media, components and dynamic zones,
 * through real HTTP against the blog example. Published English articles:
 *
 *   Alpha: author Ann, tags db+js, views 10, cover one.png, seo (keywords jsonb, postgres; shareImage),
 *          blocks: rich-text "intro", quote "Q1" (person Bob)
 *   Beta:  author Bob, tag js, views 20, gallery one+two, seo (keyword node), blocks: quote "Q2" (person Ann)
 *   Gamma: author Ann, no tags, views 30, seo without keywords, blocks: rich-text "Q1 mention"
 *   Delta: no author, tag ops, views 40, cover two.png, no seo, no blocks
 *
 * plus a draft-only "Zeta draft" (author Cid, tag ops) and a French "Alpha FR" (tag js).
 * Authors Ann (Paris, github), Bob (Berlin, twitter+mastodon), Cid (no address or socials).
 */
let t: TestApp;
const A = 'Alpha',
  B = 'Beta',
  G = 'Gamma',
  D = 'Delta';
const author: Record<string, { id: number; documentId: string }> = {};
const tag: Record<string, string> = {};
const file: Record<string, number> = {};

async function list(plural: string, query: string, key: string): Promise<string[]> {
  const res = await t.request('GET', `/api/${plural}?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((d: Record<string, string>) => d[key]);
}
const titles = (query: string): Promise<string[]> => list('articles', query, 'title');
const filter = (filters: unknown, more = ''): Promise<string[]> =>
  titles(`${qs.stringify({ filters }, { encodeValuesOnly: true })}${more}`);
const authors = (query: string): Promise<string[]> => list('authors', query, 'name');
const tags = (query: string): Promise<string[]> => list('tags', query, 'name');

async function refused(
  query: string,
  plural = 'articles',
): Promise<{ message: string; details: Record<string, unknown> }> {
  const res = await t.request('GET', `/api/${plural}?${query}`);
  expect(res.status, res.text).toBe(400);
  expect(res.body.error.name).toBe('ValidationError');
  return res.body.error;
}

async function create(
  plural: string,
  data: Record<string, unknown>,
  query = '',
): Promise<{ id: number; documentId: string }> {
  const res = await t.request('POST', `/api/${plural}${query}`, { data });
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

beforeAll(async () => {
  t = await startApp();
  for (const name of ['one.png', 'two.png']) {
    const f = await t.app.documents(FILE_UID).create({
      data: {
        name,
        hash: name.replace('.', '_'),
        ext: '.png',
        mime: 'image/png',
        size: 1,
        url: `/uploads/${name}`,
        provider: 'local',
      },
    });
    file[name] = f.id as number;
  }
  author.Ann = await create('authors', {
    name: 'Ann',
    email: 'ann@example.com',
    address: { city: 'Paris' },
    socials: [{ platform: 'github', url: 'gh/ann' }],
  });
  author.Bob = await create('authors', {
    name: 'Bob',
    email: 'bob@example.com',
    address: { city: 'Berlin' },
    socials: [{ platform: 'twitter' }, { platform: 'mastodon' }],
  });
  author.Cid = await create('authors', { name: 'Cid' });
  for (const name of ['db', 'js', 'ops']) tag[name] = (await create('tags', { name })).documentId;
  const quote = (title: string, body: string, person: string) => ({ __component: 'shared.quote', title, body, person });
  const alpha = await create('articles', {
    title: A,
    views: 10,
    author: author.Ann.documentId,
    tags: [tag.db, tag.js],
    cover: file['one.png'],
    seo: { metaTitle: 'Alpha SEO', shareImage: file['one.png'], keywords: [{ value: 'postgres' }, { value: 'jsonb' }] },
    blocks: [{ __component: 'shared.rich-text', body: 'intro' }, quote('Q1', 'quoted words', author.Bob.documentId)],
  });
  await create('articles', {
    title: B,
    views: 20,
    author: author.Bob.documentId,
    tags: [tag.js],
    gallery: [file['one.png'], file['two.png']],
    seo: { metaTitle: 'Beta SEO', keywords: [{ value: 'node' }] },
    blocks: [quote('Q2', 'Q2 body', author.Ann.documentId)],
  });
  await create('articles', {
    title: G,
    views: 30,
    author: author.Ann.documentId,
    seo: { metaTitle: 'Gamma SEO' },
    blocks: [{ __component: 'shared.rich-text', body: 'Q1 mention' }],
  });
  await create('articles', { title: D, views: 40, tags: [tag.ops], cover: file['two.png'] });
  await create('articles', { title: 'Zeta draft', author: author.Cid.documentId, tags: [tag.ops] }, '?status=draft');
  const fr = await t.request('PUT', `/api/articles/${alpha.documentId}?locale=fr`, {
    data: { title: 'Alpha FR', tags: [tag.js] },
  });
  expect(fr.status, fr.text).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

describe('seed', () => {
  it('has the four published English articles, and the French and draft versions apart', async () => {
    expect(await titles('')).toEqual([A, B, G, D]);
    expect(await titles('locale=fr')).toEqual(['Alpha FR']);
    expect(await titles('status=draft')).toEqual([A, B, G, D, 'Zeta draft']);
  });
});

describe('filters through an owning relation', () => {
  it("to-one: the related document's attributes, with $and/$or/$not inside the relation", async () => {
    expect(await titles('filters[author][name][$eq]=Ann')).toEqual([A, G]);
    expect(await titles('filters[author][name][$eq]=Zed')).toEqual([]);
    expect(
      await filter({ author: { $or: [{ name: 'Bob' }, { email: { $endsWith: '@example.com' }, name: 'Ann' }] } }),
    ).toEqual([A, B, G]);
    // no author: NOT (name = Ann) is not true for it, as with Strapi's join
    expect(await filter({ author: { $not: { name: 'Ann' } } })).toEqual([B]);
  });

  it('operators on the relation itself, and id/documentId, test the related document', async () => {
    const bob = author.Bob;
    expect(await titles(`filters[author][id][$eq]=${bob.id}`)).toEqual([B]);
    expect(await titles(`filters[author][$eq]=${bob.id}`)).toEqual([B]);
    expect(await titles(`filters[author]=${bob.id}`)).toEqual([B]);
    expect(await titles(`filters[author][documentId][$eq]=${bob.documentId}`)).toEqual([B]);
    expect(await titles(`filters[author][$in][0]=${bob.id}&filters[author][$in][1]=${author.Ann.id}`)).toEqual([
      A,
      B,
      G,
    ]);
  });

  it('$null / $notNull: no related document, or some', async () => {
    expect(await titles('filters[author][$null]=true')).toEqual([D]);
    expect(await titles('filters[author][id][$null]=true')).toEqual([D]);
    expect(await titles('filters[author][$notNull]=true')).toEqual([A, B, G]);
    expect(await titles('filters[author][$null]=false')).toEqual([A, B, G]);
    // nothing related reads as a related row of nulls (Strapi's LEFT JOIN)
    expect(await titles('filters[author][name][$null]=true')).toEqual([D]);
    expect(await titles('filters[tags][$null]=true')).toEqual([G]);
    expect(await titles('filters[tags][$notNull]=true')).toEqual([A, B, D]);
  });

  it('to-many: any related document matches', async () => {
    expect(await titles('filters[tags][name][$eq]=js')).toEqual([A, B]);
    expect(await titles('filters[tags][name][$in][0]=db&filters[tags][name][$in][1]=ops')).toEqual([A, D]);
    expect(await titles('filters[tags][name][$ne]=js')).toEqual([A, D]);
    // each condition on a relation is its own "any": two tags may satisfy them
    expect(await filter({ $and: [{ tags: { name: 'db' } }, { tags: { name: 'js' } }] })).toEqual([A]);
  });

  it('$or across a relation and a scalar', async () => {
    expect(await filter({ $or: [{ author: { name: 'Bob' } }, { views: { $gte: 30 } }] })).toEqual([B, G, D]);
    expect(await filter({ $or: [{ tags: { name: 'ops' } }, { author: { name: 'Bob' } }] })).toEqual([B, D]);
  });
});

describe('filters through an inverse relation and nested relations', () => {
  it('to-many inverse sides (author.articles, tag.articles)', async () => {
    expect(await authors('filters[articles][title][$eq]=Beta')).toEqual(['Bob']);
    expect(await authors('filters[articles][views][$gte]=25')).toEqual(['Ann']);
    expect(await authors('filters[articles][$null]=true')).toEqual(['Cid']);
    expect(await tags('filters[articles][title][$eq]=Alpha')).toEqual(['db', 'js']);
    expect(await tags('filters[articles][$notNull]=true')).toEqual(['db', 'js', 'ops']);
  });

  it('two levels deep, from either side', async () => {
    expect(await tags('filters[articles][author][name][$eq]=Bob')).toEqual(['js']);
    expect(await tags('filters[articles][author][$null]=true')).toEqual(['ops']);
    expect(await titles('filters[author][articles][title][$eq]=Gamma')).toEqual([A, G]);
    expect(await titles('filters[tags][articles][author][name][$eq]=Bob')).toEqual([A, B]);
    expect(await authors('filters[articles][tags][name][$eq]=ops')).toEqual([]);
  });
});

describe("related documents are matched in the read's scope", () => {
  it('a draft-only document counts for draft reads only', async () => {
    expect(await authors('filters[articles][title][$eq]=Zeta draft')).toEqual([]);
    expect(await authors('filters[articles][title][$eq]=Zeta draft&status=draft')).toEqual(['Cid']);
    expect(await tags('filters[articles][title][$eq]=Zeta draft')).toEqual([]);
    expect(await tags('filters[articles][title][$eq]=Zeta draft&status=draft')).toEqual(['ops']);
    expect(await authors('filters[articles][$null]=true&status=draft')).toEqual([]);
  });

  it("counts follow: the pagination total and the Document Service's count", async () => {
    const res = await t.request('GET', '/api/tags?filters[articles][title][$eq]=Zeta draft&status=draft');
    expect(res.body.meta.pagination.total).toBe(1);
    const filters = resolveFilters(t.app.registry, 'api::author.author', { articles: { title: 'Zeta draft' } });
    expect(await t.app.documents('api::author.author').count({ filters, status: 'published' })).toBe(0);
    expect(await t.app.documents('api::author.author').count({ filters, status: 'draft' })).toBe(1);
  });

  it('a localization counts for reads in its locale only', async () => {
    expect(await tags('filters[articles][title][$eq]=Alpha FR')).toEqual([]);
    expect(await tags('filters[articles][title][$eq]=Alpha FR&locale=fr')).toEqual(['js']);
    expect(await tags('filters[articles][title][$eq]=Alpha&locale=fr')).toEqual([]);
    expect(await titles('filters[tags][name][$eq]=db&locale=fr')).toEqual([]);
  });
});

describe('filters through components and dynamic zones', () => {
  it("a single component's attributes and id", async () => {
    expect(await titles('filters[seo][metaTitle][$eq]=Beta SEO')).toEqual([B]);
    expect(await titles('filters[seo][metaTitle][$endsWith]=SEO')).toEqual([A, B, G]);
    expect(await titles('filters[seo][metaTitle][$null]=true')).toEqual([D]);
    expect(await titles('filters[seo][id][$null]=true')).toEqual([D]);
    expect(await authors('filters[address][city][$eq]=Paris')).toEqual(['Ann']);
  });

  it('a repeatable component: any instance matches', async () => {
    expect(await titles('filters[seo][keywords][value][$eq]=jsonb')).toEqual([A]);
    expect(
      await titles('filters[seo][keywords][value][$in][0]=node&filters[seo][keywords][value][$in][1]=postgres'),
    ).toEqual([A, B]);
    expect(await titles('filters[seo][keywords][value][$null]=true')).toEqual([G, D]);
    expect(await authors('filters[socials][platform][$eq]=mastodon')).toEqual(['Bob']);
    expect(await authors('filters[socials][id][$notNull]=true')).toEqual(['Ann', 'Bob']);
  });

  it('a dynamic zone: items of a component with the attribute, any of them', async () => {
    expect(await titles('filters[blocks][title][$eq]=Q1')).toEqual([A]);
    // Gamma's rich-text says "Q1" but has no title; the quote's body counts, the rich text's too
    expect(await titles('filters[blocks][body][$contains]=Q')).toEqual([B, G]);
    expect(await titles('filters[blocks][title][$null]=true')).toEqual([D]);
    expect(await filter({ blocks: { $or: [{ title: 'Q2' }, { body: { $contains: 'intro' } }] } })).toEqual([A, B]);
    // an item without a title never matches through it, even negated
    expect(await filter({ blocks: { $not: { title: 'Q1' } } })).toEqual([B]);
    // a rich text has a body but no title: NOT (title = Q1 OR body = x) stays unknown for it
    expect(await filter({ blocks: { $not: { $or: [{ title: 'Q1' }, { body: 'x' }] } } })).toEqual([B]);
  });

  it('relations inside components and dynamic zones', async () => {
    expect(await titles('filters[blocks][person][name][$eq]=Bob')).toEqual([A]);
    expect(await titles('filters[blocks][person][name][$eq]=Ann')).toEqual([B]);
    expect(await titles(`filters[blocks][person][documentId][$eq]=${author.Cid.documentId}`)).toEqual([]);
  });
});

describe('media', () => {
  it('$null/$notNull and the file id, single and multiple', async () => {
    expect(await titles('filters[cover][$null]=true')).toEqual([B, G]);
    expect(await titles('filters[cover][$notNull]=true')).toEqual([A, D]);
    expect(await titles(`filters[cover][id][$eq]=${file['two.png']}`)).toEqual([D]);
    expect(await titles(`filters[gallery][$eq]=${file['two.png']}`)).toEqual([B]);
    expect(await titles('filters[gallery][$null]=true')).toEqual([A, G, D]);
    expect(await titles('filters[seo][shareImage][$notNull]=true')).toEqual([A]);
  });

  it("the files' own attributes, except private ones", async () => {
    expect(await titles('filters[cover][name][$eq]=one.png')).toEqual([A]);
    expect(await titles('filters[gallery][name][$eq]=two.png')).toEqual([B]);
    expect((await refused('filters[cover][folderPath][$eq]=/')).message).toBe(
      'Invalid key folderPath at cover.folderPath',
    );
  });
});

describe('sort through relations and components', () => {
  it('to-one relation, dotted and nested, both directions, nulls last ascending', async () => {
    expect(await titles('sort=author.name:asc')).toEqual([A, G, B, D]);
    expect(await titles('sort=author.name:desc')).toEqual([D, B, A, G]);
    expect(await titles('sort[author][name]=desc')).toEqual([D, B, A, G]);
    expect(await titles('sort[0]=author.name:asc&sort[1]=views:desc')).toEqual([G, A, B, D]);
    expect(await titles('sort[0][author][name]=asc&sort[1][views]=desc')).toEqual([G, A, B, D]);
  });

  it('pages through a relation sort', async () => {
    expect(await titles('sort=author.name:desc&pagination[page]=1&pagination[pageSize]=2')).toEqual([D, B]);
    expect(await titles('sort=author.name:desc&pagination[page]=2&pagination[pageSize]=2')).toEqual([A, G]);
    expect(await titles('sort=author.name&pagination[start]=1&pagination[limit]=2')).toEqual([G, B]);
  });

  it('to-many: ascending by the smallest related value, descending by the largest', async () => {
    expect(await titles('sort=tags.name:asc')).toEqual([A, B, D, G]);
    expect(await titles('sort=tags.name:desc')).toEqual([G, D, A, B]);
    expect(await authors('sort=articles.views:asc')).toEqual(['Ann', 'Bob', 'Cid']);
    // Ann's largest is 30, Bob's 20 (by the smallest, Bob's 20 would come before Ann's 10)
    expect(await authors('sort=articles.views:desc')).toEqual(['Cid', 'Ann', 'Bob']);
  });

  it('components, repeatable ones, and components of related documents', async () => {
    expect(await titles('sort=seo.metaTitle:desc')).toEqual([D, G, B, A]);
    expect(await titles('sort=seo.keywords.value:desc')).toEqual([G, D, A, B]);
    expect(await titles('sort=author.address.city')).toEqual([B, A, G, D]);
    expect(await titles('sort=cover.name:desc')).toEqual([B, G, D, A]);
  });
});

// Paths and messages as Strapi 5.54 reports them (filters-sort.test.ts has the rule)
describe('refused deep filters and sorts', () => {
  it('unknown, private and password names on any level are invalid keys', async () => {
    expect(await refused('filters[author][nope][$eq]=x')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope at author',
      details: { key: 'nope', path: 'author', source: 'query', param: 'filters' },
    });
    expect(await refused('filters[author][name][$foo]=x')).toMatchObject({
      message: 'Invalid key $foo at author.name',
      details: { path: 'author.name' },
    });
    expect((await refused('filters[articles][internalNotes][$eq]=x', 'tags')).message).toBe(
      'Invalid key internalNotes at articles.internalNotes',
    );
    expect((await refused('filters[tags][articles][internalNotes][$eq]=x')).details).toMatchObject({
      path: 'tags.articles.internalNotes',
    });
    expect(await refused('filters[seo][nope]=x')).toMatchObject({
      message: 'Invalid key nope at seo',
      details: { key: 'nope', path: 'seo' },
    });
    expect((await refused('filters[seo][keywords][nope]=x')).details).toMatchObject({
      key: 'nope',
      path: 'seo.keywords',
    });
    expect((await refused('filters[$null]=true')).message).toBe('Invalid key $null');
  });

  it('operators on a component or dynamic zone itself, and names no allowed component has', async () => {
    expect(await refused('filters[seo][$null]=true')).toMatchObject({
      message: 'Invalid key $null at seo',
      details: { path: 'seo' },
    });
    expect((await refused('filters[seo]=x')).message).toBe('Invalid key seo');
    expect((await refused('filters[blocks][$notNull]=true')).message).toBe('Invalid key $notNull at blocks');
    expect(await refused('filters[blocks][metaTitle][$eq]=x')).toMatchObject({
      message: 'Invalid key metaTitle at blocks',
      details: { path: 'blocks' },
    });
    expect((await refused('filters[blocks][$or][0][nope]=x')).details).toMatchObject({ key: 'nope', path: 'blocks' });
    expect((await refused('filters[blocks][__component][$eq]=shared.quote')).message).toBe(
      'Invalid key __component at blocks',
    );
  });

  it("values are cast to the nested field's type", async () => {
    expect((await refused('filters[author][id][$eq]=abc')).details).toMatchObject({ key: 'id', path: 'author.id.$eq' });
    expect((await refused('filters[articles][views][$gt]=many', 'tags')).details).toMatchObject({ key: 'views' });
  });

  it('sorts need a sortable scalar at the end of the path, through no dynamic zone', async () => {
    expect((await refused('sort=author')).message).toBe('Invalid key author');
    expect((await refused('sort=seo')).message).toBe('Invalid key seo');
    expect((await refused('sort=blocks.title')).message).toBe('Invalid key blocks');
    expect(await refused('sort=author.nope:desc')).toMatchObject({
      message: 'Invalid key nope at author',
      details: { path: 'author', param: 'sort' },
    });
    expect((await refused('sort=tags.articles.internalNotes')).message).toBe(
      'Invalid key internalNotes at tags.articles.internalNotes',
    );
    expect((await refused('sort[author][name]=up')).message).toBe(
      'Invalid order. order can only be one of asc|desc|ASC|DESC',
    );
  });
});

describe('the SQL', () => {
  it('is evaluated once for the page and its total (the matching ids are counted and paged)', async () => {
    t.queries.length = 0;
    await filter({ author: { name: { $startsWith: 'A' } } }, '&pagination[pageSize]=2');
    // (the other statement, if any, is the API token's lookup: kept in memory after the first)
    const statements = t.queries.filter((q) => readsDocuments(q) && q.includes('"articles"'));
    expect(statements).toHaveLength(1);
    expect(statements[0].match(/FROM "authors" AS "_vf1"/g)).toHaveLength(1);
    expect(statements[0]).toMatch(/SELECT count\(\*\) FROM "v:match"/);
    // without a total, no CTE: the filter sits in the page query itself
    t.queries.length = 0;
    await filter({ author: { name: { $startsWith: 'A' } } }, '&pagination[withCount]=false');
    expect(t.queries.join('\n')).not.toContain('v:match');
  });

  it('cuts the page from the matching ids by the sort keys they carry, in every order', async () => {
    const seen = recordStatements(t.app.db);
    const through = { author: { name: { $in: ['Ann', 'Bob'] } } };
    const page = async (sort: string, n: number): Promise<{ titles: string[]; total: number }> => {
      const q = `${qs.stringify({ filters: through }, { encodeValuesOnly: true })}&sort=${sort}`;
      const res = await t.request('GET', `/api/articles?${q}&pagination[pageSize]=1&pagination[page]=${n}`);
      expect(res.status, res.text).toBe(200);
      return { titles: res.body.data.map((d: { title: string }) => d.title), total: res.body.meta.pagination.total };
    };
    // views: Alpha 10, Beta 20, Gamma 30; authors Ann, Bob, Ann
    for (const [sort, order] of [
      ['views:desc', [G, B, A]],
      ['views:asc', [A, B, G]],
      // a tie on the author's name keeps the id's order; a key through a relation is carried too
      ['author.name:asc', [A, G, B]],
      ['author.name:desc,views:desc', [B, G, A]],
    ] as const) {
      const pages = [];
      for (let n = 1; n <= 4; n++) pages.push(await page(sort, n));
      expect(
        pages.map((p) => p.titles),
        sort,
      ).toEqual([...order.map((title) => [title]), []]);
      expect(pages.every((p) => p.total === 3)).toBe(true);
    }
    const last = seen.filter((s) => readsDocuments(s.sql)).at(-1) as Statement;
    // the ids with their keys, cut into the page by them: only the page's rows are read again
    expect(last.sql).toMatch(/ AS "s0", .* AS "s1", .* AS "s2" from "articles" as "m"/);
    expect(last.sql).toMatch(
      /SELECT \* FROM "v:match" ORDER BY "s0" desc, "s1" desc, "s2" asc LIMIT \$\d+ OFFSET \$\d+/,
    );
  });

  it('is a subquery over the related table, with every value bound', async () => {
    t.queries.length = 0;
    const hostile = "x'); DROP TABLE authors; --";
    expect(await filter({ author: { name: hostile }, blocks: { person: { bio: { $contains: hostile } } } })).toEqual(
      [],
    );
    const sql = t.queries.join('\n');
    expect(sql).toMatch(
      /@> ANY \(ARRAY\(SELECT jsonb_build_object\(\$\d+::text, "_vf1"\."document_id"\) FROM "authors" AS "_vf1"/,
    );
    expect(sql).toMatch(/\("_vf1"\.v->>\$\d+\) IN \(SELECT "_vf2"\."document_id" FROM "authors" AS "_vf2"/);
    expect(sql).not.toContain('DROP');
  });
});

describe('relation kinds the blog does not have (fixture app)', () => {
  let f: TestApp;
  const get = async (plural: string, query: string, key = 'name'): Promise<string[]> => {
    const res = await f.request('GET', `/api/${plural}?${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((d: Record<string, string>) => d[key]);
  };
  const make = async (plural: string, data: Record<string, unknown>): Promise<string> => {
    const res = await f.request('POST', `/api/${plural}`, { data });
    expect(res.status, res.text).toBe(201);
    return res.body.data.documentId;
  };
  beforeAll(async () => {
    f = await startApp({ appDir: path.join(ROOT, 'test/fixtures/relations') });
    const [x1, x2] = [await make('passports', { number: 'X1' }), await make('passports', { number: 'X2' })];
    await make('passports', { number: 'X3' });
    const reds = await make('teams', { name: 'Reds' });
    const blues = await make('teams', { name: 'Blues' });
    const p = await Promise.all(['Pia', 'Pol', 'Pat'].map((name) => make('players', { name })));
    await f.request('PUT', `/api/teams/${reds}`, { data: { players: [p[0], p[1]] } });
    await f.request('PUT', `/api/teams/${blues}`, { data: { players: [p[2]] } });
    const [dune, emma] = [await make('books', { title: 'Dune' }), await make('books', { title: 'Emma' })];
    const ana = await make('people', {
      name: 'Ana',
      passport: x1,
      favoriteBooks: [dune],
      card: { label: 'c', book: emma },
    });
    const ben = await make('people', {
      name: 'Ben',
      passport: x2,
      bestFriend: ana,
      sections: [{ __component: 'parts.shelf', books: [dune, emma] }],
    });
    await make('people', { name: 'Cal', bestFriend: ben });
  });
  afterAll(async () => {
    await f?.close();
  });

  it('one-to-one, owning and inverse (to-one inverse)', async () => {
    expect(await get('people', 'filters[passport][number][$eq]=X2')).toEqual(['Ben']);
    expect(await get('passports', 'filters[holder][name][$eq]=Ana', 'number')).toEqual(['X1']);
    expect(await get('passports', 'filters[holder][$null]=true', 'number')).toEqual(['X3']);
    expect(await get('passports', 'sort=holder.name:desc', 'number')).toEqual(['X3', 'X2', 'X1']);
  });

  it('one-to-many owning (an array on the team) and its to-one inverse (player.team)', async () => {
    expect(await get('teams', 'filters[players][name][$eq]=Pat')).toEqual(['Blues']);
    expect(await get('players', 'filters[team][name][$eq]=Reds')).toEqual(['Pia', 'Pol']);
    expect(await get('players', 'sort[0]=team.name:asc&sort[1]=name:desc')).toEqual(['Pat', 'Pol', 'Pia']);
  });

  it('one-way and many-way, a self relation nested, and relations in a component and a dynamic zone', async () => {
    expect(await get('people', 'filters[bestFriend][name][$eq]=Ana')).toEqual(['Ben']);
    expect(await get('people', 'filters[bestFriend][bestFriend][name][$eq]=Ana')).toEqual(['Cal']);
    expect(await get('people', 'sort=bestFriend.name:desc')).toEqual(['Ana', 'Cal', 'Ben']);
    expect(await get('people', 'filters[favoriteBooks][title][$eq]=Dune')).toEqual(['Ana']);
    expect(await get('people', 'filters[card][book][title][$eq]=Emma')).toEqual(['Ana']);
    expect(await get('people', 'filters[sections][books][title][$eq]=Emma')).toEqual(['Ben']);
    expect(await get('people', 'filters[sections][text][$null]=true')).toEqual(['Ana', 'Cal']);
  });
});
