import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import qs from 'qs';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import { resolveSort } from '../../core/query/sort.ts';
import { readsDocuments } from '../helpers/plans.ts';

/**
 * `filters` and `sort` through real HTTP against the blog example. Four published English
 * articles (A, B, D, G below) with hand-picked values, a French localization of Alpha and one
 * draft-only article; `rating` is a JSON null on Gamma and an absent key on Delta.
 */
let t: TestApp;
const doc: Record<string, { id: number; documentId: string }> = {};

const ALPHA = 'Alpha news';
const BETA = 'Beta tutorial';
const GAMMA = 'Gamma opinion';
const DELTA = 'Delta news';

const articles: Record<string, Record<string, unknown>> = {
  [ALPHA]: {
    slug: 'alpha',
    summary: 'First post about Postgres',
    views: 10,
    rating: 4.5,
    price: 9.99,
    isFeatured: true,
    publishDate: '2024-01-15',
    readingTime: '00:05',
    meta: { tags: ['db'], level: 1 },
    category: 'news',
    contactEmail: 'alpha@example.com',
    internalNotes: 'secret-a',
  },
  [BETA]: {
    slug: 'beta',
    summary: 'Learn JSONB 100%',
    views: 25,
    rating: 3,
    price: 19.5,
    isFeatured: false,
    publishDate: '2024-03-01',
    readingTime: '00:12:30',
    meta: { level: 2 },
    category: 'tutorial',
    contactEmail: 'beta@example.org',
    internalNotes: 'secret-b',
  },
  [GAMMA]: {
    slug: 'gamma',
    summary: 'postgres tips',
    views: 3,
    rating: null,
    isFeatured: false,
    publishDate: '2023-12-31',
    readingTime: '01:00',
    meta: null,
    category: 'opinion',
  },
  [DELTA]: { slug: 'delta', summary: null, views: 100, price: 5, isFeatured: true, meta: 'plain', category: 'news' },
};

/** Titles of a list request, in the order returned. */
async function titles(query: string): Promise<string[]> {
  const res = await t.request('GET', `/api/articles?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data.map((d: { title: string }) => d.title);
}
const filter = (filters: unknown): Promise<string[]> => titles(qs.stringify({ filters }, { encodeValuesOnly: true }));

/** The error of a request that must be a 400. */
async function refused(
  path: string,
): Promise<{ status: number; name: string; message: string; details: Record<string, unknown> }> {
  const res = await t.request('GET', path);
  expect(res.status, res.text).toBe(400);
  return res.body.error;
}

beforeAll(async () => {
  t = await startApp();
  for (const [title, data] of Object.entries(articles)) {
    const res = await t.request('POST', '/api/articles', { data: { title, ...data } });
    expect(res.status, res.text).toBe(201);
    doc[title] = res.body.data;
  }
  const fr = await t.request('PUT', `/api/articles/${doc[ALPHA].documentId}?locale=fr`, {
    data: { title: 'Alpha nouvelles', summary: 'Premier' },
  });
  expect(fr.status, fr.text).toBe(200);
  const draft = await t.request('POST', '/api/articles?status=draft', { data: { title: 'Zeta draft', views: 10 } });
  expect(draft.status, draft.text).toBe(201);
  // the two kinds of "no value": a key holding JSON null, and no key at all
  const rows = (title: string) => t.sql('articles').where('document_id', doc[title].documentId).where('locale', 'en');
  await rows(GAMMA).update({ data: t.sql.raw(`jsonb_set(data, '{rating}', 'null')`) });
  await rows(DELTA).update({ data: t.sql.raw(`data - 'rating' - 'publishDate' - 'readingTime'`) });
  // fixed creation times, one with milliseconds
  const created = {
    [ALPHA]: '2024-01-01T00:00:00.123Z',
    [BETA]: '2024-02-01T00:00:00Z',
    [GAMMA]: '2024-03-01T00:00:00Z',
    [DELTA]: '2024-04-01T00:00:00Z',
  };
  for (const [title, at] of Object.entries(created)) await rows(title).update({ created_at: at });
});
afterAll(async () => {
  await t?.close();
});

describe('seed', () => {
  it('stores absent and null values as intended', async () => {
    const stored = async (title: string) =>
      (
        await t
          .sql('articles')
          .first('data')
          .where('document_id', doc[title].documentId)
          .whereNotNull('published_at')
          .where('locale', 'en')
      ).data;
    expect((await stored(GAMMA)).rating).toBeNull();
    expect(Object.hasOwn(await stored(DELTA), 'rating')).toBe(false);
    expect(await titles('')).toEqual([ALPHA, BETA, GAMMA, DELTA]);
  });
});

describe('comparison operators', () => {
  it('$eq, implicit $eq and casts of the value to the attribute type', async () => {
    expect(await filter({ title: { $eq: ALPHA } })).toEqual([ALPHA]);
    expect(await filter({ title: ALPHA })).toEqual([ALPHA]);
    expect(await filter({ title: { $eq: 'alpha news' } })).toEqual([]);
    expect(await titles('filters[views][$eq]=25')).toEqual([BETA]);
    expect(await titles('filters[views]=100')).toEqual([DELTA]);
    expect(await titles('filters[rating][$eq]=4.50')).toEqual([ALPHA]);
    expect(await titles('filters[price][$eq]=19.5')).toEqual([BETA]);
    expect(await titles('filters[isFeatured][$eq]=true')).toEqual([ALPHA, DELTA]);
    expect(await titles('filters[isFeatured]=0')).toEqual([BETA, GAMMA]);
    expect(await titles('filters[publishDate][$eq]=2024-03-01T10:00:00Z')).toEqual([BETA]);
    expect(await titles('filters[readingTime][$eq]=00:05:00.000')).toEqual([ALPHA]);
    expect(await titles('filters[category][$eq]=news')).toEqual([ALPHA, DELTA]);
    // a value outside the enumeration is a question with no answer, not an error
    expect(await titles('filters[category][$eq]=sports')).toEqual([]);
  });

  it('$ne leaves out rows where the attribute is null or absent', async () => {
    expect(await titles('filters[rating][$ne]=3')).toEqual([ALPHA]);
    expect(await filter({ summary: { $ne: 'postgres tips' } })).toEqual([ALPHA, BETA]);
    expect(await titles('filters[isFeatured][$ne]=true')).toEqual([BETA, GAMMA]);
  });

  it('$lt, $lte, $gt, $gte compare numbers as numbers, dates and times in order', async () => {
    expect(await titles('filters[views][$gt]=9.5')).toEqual([ALPHA, BETA, DELTA]);
    expect(await titles('filters[views][$gte]=25')).toEqual([BETA, DELTA]);
    expect(await titles('filters[views][$lt]=25')).toEqual([ALPHA, GAMMA]);
    expect(await titles('filters[views][$lte]=3')).toEqual([GAMMA]);
    expect(await titles('filters[rating][$gt]=3')).toEqual([ALPHA]);
    expect(await titles('filters[price][$lt]=10')).toEqual([ALPHA, DELTA]);
    expect(await titles('filters[publishDate][$gte]=2024-01-01')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[publishDate][$lt]=2024-01-15')).toEqual([GAMMA]);
    expect(await titles('filters[readingTime][$gt]=00:10')).toEqual([BETA, GAMMA]);
    expect(await titles('filters[title][$gte]=Delta')).toEqual([GAMMA, DELTA]);
  });

  it('$between is inclusive at both ends', async () => {
    expect(await titles('filters[views][$between][0]=10&filters[views][$between][1]=25')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[rating][$between][0]=3&filters[rating][$between][1]=4.5')).toEqual([ALPHA, BETA]);
    expect(
      await titles('filters[publishDate][$between][0]=2023-12-31&filters[publishDate][$between][1]=2024-01-15'),
    ).toEqual([ALPHA, GAMMA]);
  });

  it('$in and $notIn, a bare array as $in, a single value as a list of one', async () => {
    expect(await titles('filters[views][$in][0]=3&filters[views][$in][1]=100')).toEqual([GAMMA, DELTA]);
    expect(await titles('filters[views][$notIn][0]=3&filters[views][$notIn][1]=100')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[views][0]=3&filters[views][1]=10')).toEqual([ALPHA, GAMMA]);
    expect(await titles('filters[views][$in]=25')).toEqual([BETA]);
    expect(await filter({ category: { $in: ['tutorial', 'opinion'] } })).toEqual([BETA, GAMMA]);
    // NOT IN leaves null out, as plain SQL does
    expect(await titles('filters[rating][$notIn][0]=3')).toEqual([ALPHA]);
  });

  it('an array given to a single-value operator ORs the values', async () => {
    expect(await titles('filters[title][$contains][0]=Alpha&filters[title][$contains][1]=Beta')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[views][$gt][0]=50&filters[views][$gt][1]=20')).toEqual([BETA, DELTA]);
    expect(await titles('filters[views][$eq][0]=3&filters[views][$eq][1]=25')).toEqual([BETA, GAMMA]);
  });
});

describe('null handling', () => {
  it('$null and $notNull match absent keys and JSON nulls alike; false inverts them', async () => {
    expect(await titles('filters[rating][$null]=true')).toEqual([GAMMA, DELTA]);
    expect(await titles('filters[rating][$null]=false')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[rating][$notNull]=true')).toEqual([ALPHA, BETA]);
    expect(await titles('filters[rating][$notNull]=false')).toEqual([GAMMA, DELTA]);
    expect(await titles('filters[summary][$null]=true')).toEqual([DELTA]);
    expect(await filter({ publishDate: { $null: true } })).toEqual([DELTA]);
  });

  it('$eq null is IS NULL and $ne null IS NOT NULL (through the document service: qs has no null)', async () => {
    const list = async (filters: unknown): Promise<string[]> => {
      const docs = await t.app.documents('api::article.article').findMany({
        status: 'published',
        filters: resolveFilters(t.app.registry, 'api::article.article', filters),
      });
      return docs.map((d) => d.title as string);
    };
    expect(await list({ rating: { $eq: null } })).toEqual([GAMMA, DELTA]);
    expect(await list({ rating: null })).toEqual([GAMMA, DELTA]);
    expect(await list({ rating: { $ne: null } })).toEqual([ALPHA, BETA]);
    expect(await list({ meta: { $eq: null } })).toEqual([GAMMA]);
  });
});

describe('text operators', () => {
  it('$contains and $notContains are case-sensitive; their i variants are not', async () => {
    expect(await titles('filters[summary][$contains]=Postgres')).toEqual([ALPHA]);
    expect(await titles('filters[summary][$containsi]=POSTGRES')).toEqual([ALPHA, GAMMA]);
    expect(await titles('filters[summary][$notContains]=Postgres')).toEqual([BETA, GAMMA]);
    expect(await titles('filters[summary][$notContainsi]=postgres')).toEqual([BETA]);
  });

  it('$startsWith/$endsWith and their case-insensitive variants', async () => {
    expect(await titles('filters[summary][$startsWith]=first')).toEqual([]);
    expect(await titles('filters[summary][$startsWith]=First')).toEqual([ALPHA]);
    expect(await titles('filters[summary][$startsWithi]=FIRST')).toEqual([ALPHA]);
    expect(await titles('filters[summary][$endsWith]=postgres')).toEqual([]);
    expect(await titles('filters[summary][$endsWith]=Postgres')).toEqual([ALPHA]);
    expect(await titles('filters[summary][$endsWithi]=POSTGRES')).toEqual([ALPHA]);
    expect(await titles('filters[contactEmail][$endsWith]=@example.com')).toEqual([ALPHA]);
  });

  it('$eqi and $nei compare case-insensitively, $nei leaving nulls out', async () => {
    expect(await filter({ title: { $eqi: 'ALPHA NEWS' } })).toEqual([ALPHA]);
    expect(await filter({ summary: { $nei: 'POSTGRES TIPS' } })).toEqual([ALPHA, BETA]);
  });

  it('% and _ in values stay wildcards, as in Strapi', async () => {
    expect(await titles(`filters[summary][$startsWith]=${encodeURIComponent('L%JSONB')}`)).toEqual([BETA]);
    expect(await titles('filters[summary][$contains]=_')).toEqual([ALPHA, BETA, GAMMA]);
    expect(await titles(`filters[summary][$endsWith]=${encodeURIComponent('100%')}`)).toEqual([BETA]);
    // a trailing backslash is literal rather than an SQL error
    expect(await titles(`filters[summary][$endsWith]=${encodeURIComponent('x\\')}`)).toEqual([]);
  });

  it('text operators read numbers and dates as the text they are returned as', async () => {
    expect(await titles('filters[views][$startsWith]=1')).toEqual([ALPHA, DELTA]);
    expect(await titles('filters[publishDate][$startsWith]=2024-0')).toEqual([ALPHA, BETA]);
  });
});

describe('json attributes', () => {
  it('$eq is JSON equality, not containment', async () => {
    expect(await filter({ meta: { $eq: JSON.stringify({ level: 1 }) } })).toEqual([]);
    expect(await filter({ meta: { $eq: JSON.stringify({ level: 1, tags: ['db'] }) } })).toEqual([ALPHA]);
    expect(await filter({ meta: { $eq: JSON.stringify({ level: 2 }) } })).toEqual([BETA]);
    expect(await titles('filters[meta][$eq]=plain')).toEqual([DELTA]);
    expect(await titles('filters[meta][$ne]=plain')).toEqual([ALPHA, BETA]);
  });

  it('$null and $notNull', async () => {
    expect(await titles('filters[meta][$null]=true')).toEqual([GAMMA]);
    expect(await titles('filters[meta][$notNull]=true')).toEqual([ALPHA, BETA, DELTA]);
  });
});

describe('logical operators', () => {
  it('sibling keys are ANDed', async () => {
    expect(await titles('filters[category]=news&filters[views][$gt]=50')).toEqual([DELTA]);
    expect(await titles('filters[views][$gt]=5&filters[views][$lt]=50')).toEqual([ALPHA, BETA]);
  });

  it('$or and $and take arrays, and nest', async () => {
    expect(await titles('filters[$or][0][views][$lt]=5&filters[$or][1][category]=tutorial')).toEqual([BETA, GAMMA]);
    expect(await titles('filters[$and][0][isFeatured]=true&filters[$and][1][views][$gt]=50')).toEqual([DELTA]);
    expect(
      await filter({
        $or: [{ $and: [{ category: 'news' }, { views: { $lt: 50 } }] }, { title: GAMMA }],
      }),
    ).toEqual([ALPHA, GAMMA]);
    expect(
      await filter({
        $and: [{ $or: [{ views: 3 }, { views: 100 }] }, { $or: [{ category: 'news' }, { category: 'tutorial' }] }],
      }),
    ).toEqual([DELTA]);
  });

  it('$not at root and at attribute level (null stays out, as NOT (NULL > 3) is not true)', async () => {
    expect(await titles('filters[$not][category]=news')).toEqual([BETA, GAMMA]);
    expect(await titles('filters[rating][$not][$gt]=3')).toEqual([BETA]);
    expect(await titles('filters[views][$not]=10')).toEqual([BETA, GAMMA, DELTA]);
    expect(await filter({ $or: [{ $not: { views: { $gte: 10 } } }, { isFeatured: true }] })).toEqual([
      ALPHA,
      GAMMA,
      DELTA,
    ]);
    expect(await filter({ $not: { $or: [{ category: 'news' }, { views: 3 }] } })).toEqual([BETA]);
  });
});

describe('system fields', () => {
  it('id and documentId', async () => {
    expect(await titles(`filters[id][$eq]=${doc[BETA].id}`)).toEqual([BETA]);
    expect(await titles(`filters[id][$gt]=${doc[GAMMA].id}`)).toEqual([DELTA]);
    expect(await titles(`filters[documentId]=${doc[GAMMA].documentId}`)).toEqual([GAMMA]);
    expect(await filter({ documentId: { $in: [doc[ALPHA].documentId, doc[DELTA].documentId] } })).toEqual([
      ALPHA,
      DELTA,
    ]);
  });

  it('createdAt compares as an instant, to the millisecond the API shows', async () => {
    const res = await t.request('GET', `/api/articles?filters[createdAt][$eq]=2024-01-01T00:00:00.123Z`);
    expect(res.body.data.map((d: { title: string }) => d.title)).toEqual([ALPHA]);
    expect(res.body.data[0].createdAt).toBe('2024-01-01T00:00:00.123Z');
    expect(await titles(`filters[createdAt][$eq]=${encodeURIComponent('2024-01-01T01:00:00.123+01:00')}`)).toEqual([
      ALPHA,
    ]);
    expect(await titles('filters[createdAt][$gt]=2024-02-01T00:00:00Z')).toEqual([GAMMA, DELTA]);
    expect(await titles(`filters[createdAt][$lt]=${encodeURIComponent('2024-02-01T02:00:00+02:00')}`)).toEqual([ALPHA]);
    expect(await titles(`filters[createdAt][$lte]=${encodeURIComponent('2024-02-01T02:00:00+02:00')}`)).toEqual([
      ALPHA,
      BETA,
    ]);
    expect(await titles('filters[createdAt][$startsWith]=2024-03')).toEqual([GAMMA]);
  });

  it('updatedAt, publishedAt and locale', async () => {
    expect(await titles('filters[updatedAt][$notNull]=true')).toEqual([ALPHA, BETA, GAMMA, DELTA]);
    expect(await titles('filters[publishedAt][$null]=true')).toEqual([]);
    expect(await titles('status=draft&filters[publishedAt][$null]=true&filters[views]=10')).toEqual([
      ALPHA,
      'Zeta draft',
    ]);
    expect(await titles('filters[locale][$eq]=en')).toEqual([ALPHA, BETA, GAMMA, DELTA]);
    expect(await titles('filters[locale][$eq]=fr')).toEqual([]);
    expect(await titles('locale=fr&filters[locale][$eq]=fr')).toEqual(['Alpha nouvelles']);
  });

  it('count and pagination meta follow the filters', async () => {
    const res = await t.request('GET', '/api/articles?filters[views][$gt]=5&pagination[pageSize]=2');
    expect(res.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
  });
});

describe('sort', () => {
  it('by one attribute, ascending by default, in either direction in any case', async () => {
    expect(await titles('sort=views')).toEqual([GAMMA, ALPHA, BETA, DELTA]);
    expect(await titles('sort=views:asc')).toEqual([GAMMA, ALPHA, BETA, DELTA]);
    expect(await titles('sort=views:desc')).toEqual([DELTA, BETA, ALPHA, GAMMA]);
    expect(await titles('sort=views:DESC')).toEqual([DELTA, BETA, ALPHA, GAMMA]);
    expect(await titles('sort=views%3ADesc')).toEqual([DELTA, BETA, ALPHA, GAMMA]);
    expect(await titles('sort=title')).toEqual([ALPHA, BETA, DELTA, GAMMA]);
  });

  it('numbers sort as numbers, nulls last ascending and first descending, ties by id', async () => {
    expect(await titles('sort=price')).toEqual([DELTA, ALPHA, BETA, GAMMA]);
    expect(await titles('sort=rating:asc')).toEqual([BETA, ALPHA, GAMMA, DELTA]);
    expect(await titles('sort=rating:desc')).toEqual([GAMMA, DELTA, ALPHA, BETA]);
    expect(await titles('sort=publishDate:desc')).toEqual([DELTA, BETA, ALPHA, GAMMA]);
    expect(await titles('sort=readingTime')).toEqual([ALPHA, BETA, GAMMA, DELTA]);
    expect(await titles('sort=isFeatured')).toEqual([BETA, GAMMA, ALPHA, DELTA]);
  });

  it('comma lists, arrays and objects', async () => {
    expect(await titles('sort=isFeatured:desc,views')).toEqual([ALPHA, DELTA, GAMMA, BETA]);
    expect(await titles('sort[0]=category:asc&sort[1]=views:desc')).toEqual([DELTA, ALPHA, GAMMA, BETA]);
    expect(await titles('sort[category]=desc&sort[title]=asc')).toEqual([BETA, GAMMA, ALPHA, DELTA]);
    expect(await titles('sort[0][category]=asc&sort[1][title]=desc')).toEqual([DELTA, ALPHA, GAMMA, BETA]);
  });

  it('by system fields', async () => {
    expect(await titles('sort=createdAt:desc')).toEqual([DELTA, GAMMA, BETA, ALPHA]);
    expect(await titles('sort=id:desc')).toEqual([DELTA, GAMMA, BETA, ALPHA]);
    const byDocumentId = [ALPHA, BETA, GAMMA, DELTA].sort((a, b) => (doc[a].documentId < doc[b].documentId ? -1 : 1));
    expect(await titles('sort=documentId')).toEqual(byDocumentId);
  });

  it('combines with filters and both pagination styles', async () => {
    const res = await t.request('GET', '/api/articles?sort=views:desc&pagination[page]=2&pagination[pageSize]=2');
    expect(res.body.data.map((d: { title: string }) => d.title)).toEqual([ALPHA, GAMMA]);
    expect(res.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 4 });
    expect(await titles('sort=title&pagination[start]=1&pagination[limit]=2')).toEqual([BETA, DELTA]);
    expect(await titles('filters[views][$gt]=5&sort=views:desc&pagination[pageSize]=2')).toEqual([DELTA, BETA]);
  });

  it('pages through ties in one stable order', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++)
      pages.push(...(await titles(`sort=isFeatured:desc&pagination[page]=${page}&pagination[pageSize]=1`)));
    expect(pages).toEqual([ALPHA, DELTA, BETA, GAMMA]);
  });

  it('works on types without draft & publish (tags)', async () => {
    for (const name of ['kappa', 'iota', 'lambda'])
      expect((await t.request('POST', '/api/tags', { data: { name } })).status).toBe(201);
    const names = async (q: string) =>
      (await t.request('GET', `/api/tags?${q}`)).body.data.map((d: { name: string }) => d.name);
    expect(await names('sort=name:desc')).toEqual(['lambda', 'kappa', 'iota']);
    expect(await names('filters[name][$ne]=kappa&sort=name')).toEqual(['iota', 'lambda']);
  });
});

// The invalid-key envelopes below are Strapi 5.54's answers to the same requests: `path` is
// the attributes leading to where the key was found (null at the top), or the key's own path
// when it is an attribute the query may not use; the message adds "at <path>" when they differ.
describe('refused filters', () => {
  it('an unknown attribute, private or password attribute is an invalid key', async () => {
    expect(await refused('/api/articles?filters[nope][$eq]=1')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'query', param: 'filters' },
    });
    expect(await refused('/api/articles?filters[$or][0][nope]=x')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'query', param: 'filters' },
    });
    expect((await refused('/api/articles?filters[internalNotes][$eq]=secret-a')).details).toEqual({
      key: 'internalNotes',
      path: 'internalNotes',
      source: 'query',
      param: 'filters',
    });
    expect((await refused('/api/articles?filters[$or][0][internalNotes][$null]=true')).message).toBe(
      'Invalid key internalNotes',
    );
    expect((await refused('/api/tags?filters[locale]=en')).details).toEqual({
      key: 'locale',
      path: 'locale',
      source: 'query',
      param: 'filters',
    });
  });

  it('an unknown operator, or one in the wrong case, is an invalid key', async () => {
    expect(await refused('/api/articles?filters[title][$foo]=x')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key $foo at title',
      details: { key: '$foo', path: 'title', source: 'query', param: 'filters' },
    });
    expect(await refused('/api/articles?filters[title][$EQ]=x')).toMatchObject({
      message: 'Invalid key $EQ at title',
      details: { key: '$EQ', path: 'title' },
    });
    expect((await refused('/api/articles?filters[$nor][0][title]=x')).details).toEqual({
      key: '$nor',
      path: null,
      source: 'query',
      param: 'filters',
    });
    expect((await refused('/api/articles?filters[title][$and][0]=x')).message).toBe('Invalid key $and at title');
    // Strapi orders json values; Vellum refuses (README)
    expect((await refused('/api/articles?filters[meta][$gt]=1')).message).toBe('Invalid key $gt at meta');
  });

  it('a value that cannot be cast names the key, with value null', async () => {
    // Strapi 5.54 answers these with a 500 (numbers) or lets them through (booleans): a 400
    // naming the key, with `value: null` as its validator reports a value it could not cast
    expect(await refused('/api/articles?filters[views][$eq]=abc')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'views.$eq must be a `number` type',
      details: { key: 'views', path: 'views.$eq', source: 'query', param: 'filters', value: null },
    });
    expect((await refused('/api/articles?filters[views][$gt]=many')).details).toMatchObject({
      key: 'views',
      path: 'views.$gt',
      value: null,
    });
    expect((await refused('/api/articles?filters[isFeatured]=yes')).details).toMatchObject({ key: 'isFeatured' });
    expect((await refused('/api/articles?filters[views][$in][1]=x&filters[views][$in][0]=1')).details).toMatchObject({
      key: 'views',
      path: 'views.$in.1',
    });
    expect((await refused('/api/articles?filters[rating][$null]=maybe')).details).toMatchObject({ key: 'rating' });
    expect((await refused('/api/articles?filters[id]=abc')).details).toMatchObject({ key: 'id' });
  });

  it("a date, time or datetime that cannot be read is refused in Strapi 5.54's words, without details", async () => {
    const answers: Array<[string, string]> = [
      ['filters[publishDate][$eq]=2024-13-45', 'Invalid format, expected yyyy-MM-dd'],
      ['filters[publishDate][$eq]=2024-02-30', 'Invalid date'],
      ['filters[readingTime][$eq]=abc', 'Invalid time format, expected HH:mm:ss.SSS'],
      ['filters[createdAt][$eq]=abc', 'Invalid format, expected a timestamp or an ISO date'],
      ['filters[createdAt][$gt]=2024-99-99', 'Invalid format, expected a timestamp or an ISO date'],
    ];
    for (const [query, message] of answers) {
      expect(await refused(`/api/articles?${query}`)).toEqual({
        status: 400,
        name: 'ValidationError',
        message,
        details: {},
      });
    }
  });

  it('$between needs exactly two values, $and/$or an array, $not an object', async () => {
    expect((await refused('/api/articles?filters[views][$between][0]=1')).message).toMatch(
      /\$between expects an array of two values/,
    );
    expect((await refused('/api/articles?filters[views][$between]=1')).message).toMatch(/\$between/);
    expect((await refused('/api/articles?filters[$or][title]=x')).message).toBe(
      'Invalid value of $or: expected an array',
    );
    expect((await refused('/api/articles?filters[$and]=x')).message).toBe('Invalid value of $and: expected an array');
    expect((await refused('/api/articles?filters[$or][0]=x')).message).toMatch(/expected an array of objects/);
    expect((await refused('/api/articles?filters[$not]=x')).message).toMatch(/\$not/);
    expect((await refused('/api/articles?filters=x')).message).toMatch(/filters/);
  });

  it('relations, media, components, dynamic zones filter through (deep-filters.test.ts), not as values', async () => {
    expect((await refused('/api/articles?filters[seo]=x')).details).toEqual({
      key: 'seo',
      path: 'seo',
      source: 'query',
      param: 'filters',
    });
    expect((await refused('/api/articles?filters[blocks][$null]=true')).message).toBe('Invalid key $null at blocks');
    expect(await filter({ author: { $null: true }, cover: { $null: true }, tags: { $null: true } })).toEqual([
      ALPHA,
      BETA,
      GAMMA,
      DELTA,
    ]);
  });
});

describe('refused sorts', () => {
  it('unknown, private and non-sortable attributes are invalid keys', async () => {
    expect(await refused('/api/articles?sort=nope')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'query', param: 'sort' },
    });
    expect((await refused('/api/articles?sort=internalNotes:desc')).details).toEqual({
      key: 'internalNotes',
      path: 'internalNotes',
      source: 'query',
      param: 'sort',
    });
    expect((await refused('/api/articles?sort=internalNotes:desc')).message).toBe('Invalid key internalNotes');
    expect((await refused('/api/articles?sort[0]=title&sort[1]=meta')).message).toBe('Invalid key meta');
    expect((await refused('/api/articles?sort=author')).message).toBe('Invalid key author');
    // Strapi 5.54 answers a 500 to this one
    expect((await refused('/api/articles?sort[title][x]=asc')).details).toMatchObject({ key: 'x', path: 'title' });
  });

  it('a direction other than asc/desc, or an empty name, is a 400', async () => {
    const invalidOrder = {
      status: 400,
      name: 'ValidationError',
      message: 'Invalid order. order can only be one of asc|desc|ASC|DESC',
      details: {},
    };
    expect(await refused('/api/articles?sort=title:sideways')).toEqual(invalidOrder);
    expect(await refused('/api/articles?sort[title]=up')).toEqual(invalidOrder);
    expect((await refused('/api/articles?sort=title:asc:desc')).name).toBe('ValidationError');
    expect((await refused('/api/articles?sort=title,,views')).name).toBe('ValidationError');
  });

  it('paths must end on a sortable scalar (relation and component paths: deep-filters.test.ts)', async () => {
    expect((await refused('/api/articles?sort=seo')).details).toEqual({
      key: 'seo',
      path: 'seo',
      source: 'query',
      param: 'sort',
    });
    expect(await refused('/api/articles?sort=author.nope')).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope at author',
      details: { key: 'nope', path: 'author', source: 'query', param: 'sort' },
    });
  });
});

describe('types the blog does not have', () => {
  let m: TestApp;
  const names = async (q: string): Promise<string[]> => {
    const res = await m.request('GET', `/api/measures?${q}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((d: { name: string }) => d.name);
  };
  beforeAll(async () => {
    const appDir = await writeApp({
      contentTypes: {
        measure: {
          kind: 'collectionType',
          collectionName: 'measures',
          info: { singularName: 'measure', pluralName: 'measures' },
          options: { draftAndPublish: false },
          attributes: {
            name: { type: 'string' },
            big: { type: 'biginteger' },
            at: { type: 'datetime' },
            stamp: { type: 'timestamp' },
            blk: { type: 'blocks' },
          },
        },
      },
    });
    m = await startApp({ appDir });
    const rows = [
      { name: 'huge', big: '9007199254740993', at: '2024-05-01T10:00:00Z', stamp: '2024-05-01T10:00:00.500Z' },
      { name: 'twelve', big: '12', at: '2024-05-01T12:00:00+02:00', stamp: 1714557600000 },
      { name: 'negative', big: '-5', at: '2024-05-02T00:00:00Z' },
      { name: 'hundred', big: '100', blk: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }] },
    ];
    for (const data of rows) expect((await m.request('POST', '/api/measures', { data })).status).toBe(201);
  });
  afterAll(async () => {
    await m?.close();
  });

  it('bigintegers compare and sort exactly, as numbers', async () => {
    expect(await names('filters[big][$eq]=9007199254740993')).toEqual(['huge']);
    expect(await names('filters[big][$eq]=9007199254740992')).toEqual([]);
    expect(await names('filters[big][$gt]=99')).toEqual(['huge', 'hundred']);
    expect(await names('filters[big][$lt]=0012')).toEqual(['negative']);
    expect(await names('sort=big:desc')).toEqual(['huge', 'hundred', 'twelve', 'negative']);
    const bad = await m.request('GET', '/api/measures?filters[big][$gt]=1.5');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toMatchObject({ key: 'big', path: 'big.$gt', value: null });
  });

  it('datetimes and timestamps compare as instants, whatever offset the value is written with', async () => {
    expect(await names('filters[at][$eq]=2024-05-01T10:00:00.000Z')).toEqual(['huge', 'twelve']);
    expect(await names(`filters[at][$gt]=${encodeURIComponent('2024-05-01T11:00:00+01:00')}`)).toEqual(['negative']);
    expect(await names('filters[stamp][$gte]=2024-05-01T10:00:00.400Z')).toEqual(['huge']);
    expect(await names('filters[stamp][$lt]=2024-05-01T10:00:00.400Z')).toEqual(['twelve']);
    expect(await names('sort=at:desc,name')).toEqual(['hundred', 'negative', 'huge', 'twelve']);
  });

  it('blocks can be tested for null but not sorted', async () => {
    expect(await names('filters[blk][$notNull]=true')).toEqual(['hundred']);
    expect((await m.request('GET', '/api/measures?sort=blk')).status).toBe(400);
  });
});

describe('the SQL', () => {
  it('binds every value, and serves $eq on an unindexed scalar with a containment the GIN index can use', async () => {
    t.queries.length = 0;
    const marker = "o'hara";
    expect(await filter({ summary: marker, title: { $containsi: marker } })).toEqual([]);
    // the one statement of the read (see core/documents/read.ts)
    const list = t.queries.find((sql) => readsDocuments(sql));
    expect(list).toMatch(/"r0"\."data" @> \$\d+::jsonb/);
    expect(t.queries.join('\n')).not.toContain('hara');
  });
});

describe('resolving for other callers', () => {
  it('the same resolvers serve code that is not REST', () => {
    expect(resolveSort(t.app.registry, 'api::article.article', 'views:desc')).toEqual([
      { field: { kind: 'attribute', name: 'views', type: 'integer', column: 'v$views' }, order: 'desc' },
    ]);
    expect(
      resolveFilters(t.app.registry, 'api::article.article', { internalNotes: 'x' }, { allowPrivate: true }),
    ).toEqual({
      type: 'condition',
      field: { kind: 'attribute', name: 'internalNotes', type: 'string' },
      operator: '$eq',
      value: 'x',
    });
  });
});
