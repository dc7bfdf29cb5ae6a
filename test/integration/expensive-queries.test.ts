import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ROOT, startApp } from '../helpers/app.ts';
import { until } from '../helpers/until.ts';
import { readsDocuments } from '../helpers/plans.ts';

/**
 * What one expensive request can do to everyone else. Filters and sorts chained through a
 * many-to-many relation and back (`tags.articles.tags…`) once compiled to SQL whose cost grew
 * exponentially with depth: three round trips ran 200 s on a 200-article blog. Now each
 * level is one pass over a table, requests are bounded in depth and conditions, every
 * statement has a timeout, and an abandoned request's statement is cancelled.
 */
let t: TestApp;
/** each article's row id, by `n`: the API breaks ties in id order */
const ids: number[] = [];

const ARTICLES = 200;
const TAGS = 30;

/** The tags article `n` gets (indexes into the seeded tags). */
const tagsOf = (n: number): number[] => [...new Set([n % TAGS, (n * 7 + 1) % TAGS, (n * 13 + 2) % TAGS])];
const title = (n: number): string => `Article ${String(n).padStart(3, '0')}`;

/** The articles that share a tag with any of `from`: one round trip through tags.articles. */
function step(from: Set<number>): Set<number> {
  const tags = new Set([...from].flatMap(tagsOf));
  return new Set(Array.from({ length: ARTICLES }, (_, n) => n).filter((n) => tagsOf(n).some((x) => tags.has(x))));
}
/** The articles `hops` relations away from `from` (a round trip is two). */
function reach(from: Set<number>, hops: number): Set<number> {
  let out = from;
  for (let i = 0; i < hops / 2; i++) out = step(out);
  return out;
}

/** `[tags][articles]` repeated: `hops` relations deep (an even number), then `rest`. */
const chain = (hops: number, rest: string): string => `${'[tags][articles]'.repeat(hops / 2)}${rest}`;
const dotted = (hops: number, rest: string): string => `${'tags.articles.'.repeat(hops / 2)}${rest}`;

/** The answer to `path`, with the statement that read it. */
async function read(path: string): Promise<{ status: number; body: any; sql: string }> {
  t.queries.length = 0;
  const res = await t.request('GET', path);
  const sql = t.queries.filter((q) => readsDocuments(q)).at(-1) ?? '';
  return { status: res.status, body: res.body, sql };
}

beforeAll(async () => {
  // a 2 s statement timeout: a query that grew out of hand answers 503 instead of hanging the test
  t = await startApp({ config: { database: { statementTimeout: 2000 } } });
  const tagIds: string[] = [];
  for (let i = 0; i < TAGS; i += 10) {
    const batch = await Promise.all(
      Array.from({ length: 10 }, (_, j) => t.request('POST', '/api/tags', { data: { name: `tag-${i + j}` } })),
    );
    tagIds.push(...batch.map((r) => r.body.data.documentId as string));
  }
  for (let i = 0; i < ARTICLES; i += 20) {
    await Promise.all(
      Array.from({ length: 20 }, async (_, j) => {
        const n = i + j;
        const res = await t.request('POST', '/api/articles?status=published', {
          data: { title: title(n), slug: `article-${n}`, tags: tagsOf(n).map((x) => tagIds[x]) },
        });
        ids[n] = res.body.data.id;
      }),
    );
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('filters, sorts and populate filters through many relations', () => {
  it('filter: eight relations deep answers, with a statement a small multiple of four deep', async () => {
    const four = await read(`/api/articles?filters${chain(4, '[title][$null]=true')}`);
    const eight = await read(`/api/articles?filters${chain(8, '[title][$null]=true')}`);
    expect(four.status).toBe(200);
    // within the 2 s statement timeout (this one ran for minutes when each level was a correlated EXISTS)
    expect(eight.status, JSON.stringify(eight.body)).toBe(200);
    expect(eight.body.data).toEqual([]);
    expect(eight.sql.length).toBeLessThan(four.sql.length * 3);
  });

  it('filter: through several relations, finds exactly the documents that reach a match', async () => {
    // the articles from which eight hops reach "Article 007": those within four round trips of it
    const expected = reach(new Set([7]), 8);
    expect(expected.size).toBeGreaterThan(1);
    expect(expected.size).toBeLessThan(ARTICLES);
    const found = await read(
      `/api/articles?filters${chain(8, '[title][$eq]=Article 007')}&sort=title&pagination[pageSize]=100` +
        `&fields[0]=title`,
    );
    expect(found.status).toBe(200);
    expect(found.body.meta.pagination.total).toBe(expected.size);
    const all = [...expected].sort((a, b) => a - b).map(title);
    expect(found.body.data.map((d: { title: string }) => d.title)).toEqual(all.slice(0, 100));
    const none = await read(`/api/articles?filters${chain(8, '[title][$eq]=nothing')}`);
    expect(none.body.meta.pagination.total).toBe(0);
  });

  it('sort: eight relations deep answers, with a statement a small multiple of four deep', async () => {
    const four = await read(`/api/articles?sort=${dotted(4, 'title')}`);
    const eight = await read(`/api/articles?sort=${dotted(8, 'title:desc')}`);
    expect(four.status).toBe(200);
    expect(eight.status, JSON.stringify(eight.body)).toBe(200);
    expect(eight.body.data).toHaveLength(25);
    expect(eight.sql.length).toBeLessThan(four.sql.length * 3);
  });

  it('sort: through several relations, by the smallest (asc) or largest (desc) value reachable', async () => {
    const all = Array.from({ length: ARTICLES }, (_, n) => n);
    const expected = (hops: number, order: 'asc' | 'desc'): string[] =>
      all
        .map((n) => {
          const titles = [...reach(new Set([n]), hops)].map(title).sort();
          return { n, key: order === 'asc' ? titles[0] : titles.at(-1)! };
        })
        // ties in id order, as the API breaks them
        .sort((a, b) => (a.key === b.key ? ids[a.n] - ids[b.n] : a.key < b.key === (order === 'asc') ? -1 : 1))
        .slice(0, 25)
        .map(({ n }) => title(n));
    for (const [hops, order] of [
      [2, 'asc'],
      [4, 'desc'],
      [6, 'asc'],
    ] as const) {
      const res = await read(`/api/articles?sort=${dotted(hops, `title:${order}`)}&fields[0]=title`);
      expect(res.status).toBe(200);
      expect(
        res.body.data.map((d: { title: string }) => d.title),
        `${hops} ${order}`,
      ).toEqual(expected(hops, order));
    }
  });

  it('populate filters: eight relations deep answers, with a statement a small multiple of four deep', async () => {
    const q = (hops: number): string => `/api/tags?populate[articles][filters]${chain(hops, '[title][$null]=true')}`;
    const four = await read(q(4));
    const eight = await read(q(8));
    expect(four.status).toBe(200);
    expect(eight.status, JSON.stringify(eight.body)).toBe(200);
    expect(eight.body.data[0].articles).toEqual([]);
    expect(eight.sql.length).toBeLessThan(four.sql.length * 3);
  });
});

describe('query bounds (api.rest.maxQueryDepth, maxQueryConditions)', () => {
  it('refuses filters, sorts and populate filters deeper than the default bound, naming it', async () => {
    for (const path of [
      `/api/articles?filters${chain(12, '[title][$null]=true')}`,
      `/api/articles?filters[author][articles]${chain(10, '[title]=x')}`,
      `/api/articles?sort=${dotted(12, 'title')}`,
      `/api/tags?populate[articles][filters]${chain(12, '[title]=x')}`,
    ]) {
      const res = await t.request('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.error.message).toContain('api.rest.maxQueryDepth');
      expect(res.body.error.details.limit).toBe(10);
    }
    // ten is within the bound
    expect((await t.request('GET', `/api/articles?filters${chain(10, '[title]=x')}`)).status).toBe(200);
  });

  it('refuses more conditions than the bound, counting populate filters too', async () => {
    // qs takes at most 100 items in one array: two lists of 100
    const list = (op: string, prefix = 'filters'): string =>
      Array.from({ length: 100 }, (_, i) => `${prefix}[${op}][${i}][title]=t${i}`).join('&');
    const two = `${list('$or')}&${list('$and')}`;
    expect((await t.request('GET', `/api/articles?${two}`)).status).toBe(200);
    const many = await t.request('GET', `/api/articles?${two}&populate[tags][filters][name]=x`);
    expect(many.status).toBe(400);
    expect(many.body.error.message).toContain('api.rest.maxQueryConditions');
    expect(many.body.error.details.limit).toBe(200);
  });

  it('are configurable', async () => {
    const strict = await startApp({ config: { api: { rest: { maxQueryDepth: 2, maxQueryConditions: 3 } } } });
    try {
      expect((await strict.request('GET', `/api/articles?filters${chain(2, '[title]=x')}`)).status).toBe(200);
      const deep = await strict.request('GET', '/api/articles?filters[tags][articles][author][name]=x');
      expect(deep.status).toBe(400);
      expect(deep.body.error.details.limit).toBe(2);
      const sort = await strict.request('GET', '/api/articles?sort=tags.articles.author.name');
      expect(sort.status).toBe(400);
      const conditions = await strict.request(
        'GET',
        '/api/articles?filters[title]=a&filters[slug]=b&filters[views]=1&filters[rating]=2',
      );
      expect(conditions.status).toBe(400);
      expect(conditions.body.error.details.limit).toBe(3);
      // the users list and count are bounded too
      const fourOnUsers = 'filters[username]=a&filters[email]=b&filters[id]=1&filters[provider]=local';
      for (const route of ['/api/users', '/api/users/count']) {
        const users = await strict.request('GET', `${route}?${fourOnUsers}`);
        expect(users.status, route).toBe(400);
        expect(users.body.error.message).toContain('api.rest.maxQueryConditions');
      }
      expect((await strict.request('GET', '/api/users/count?filters[username]=a&filters[email]=b')).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('slow statements', () => {
  let s: TestApp;
  const POOL = 4;
  const slowUrl = (ms: number): string => `${s.url}/api/slow?ms=${ms}`;
  /** Backends of this test's database still running a pg_sleep. */
  const sleeping = async (): Promise<number> => {
    const { rows } = await s.sql.raw(
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE ' +
        "'SELECT pg_sleep%' AND state = 'active'",
    );
    return rows[0].n;
  };

  beforeAll(async () => {
    s = await startApp({
      appDir: path.join(ROOT, 'test/fixtures/slow'),
      config: { database: { statementTimeout: 1000, pool: { min: 0, max: POOL } } },
    });
    await s.request('POST', '/api/tags', { data: { name: 'one' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a statement running past database.statementTimeout is cancelled: 503, clear error, nothing leaked', async () => {
    const res = await fetch(slowUrl(5000));
    const body = await res.json();
    expect(res.status).toBe(503);
    expect(body).toEqual({
      data: null,
      error: {
        status: 503,
        name: 'ServiceUnavailableError',
        message: 'The request took too long and was cancelled',
        details: {},
      },
    });
    expect(await until(async () => (await sleeping()) === 0)).toBe(true);
    // a statement within the timeout is unaffected
    expect((await fetch(slowUrl(10))).status).toBe(200);
  });

  it('the statement of a request whose client goes away is cancelled', async () => {
    const client = new AbortController();
    const pending = fetch(slowUrl(900), { signal: client.signal }).catch((e: Error) => e);
    expect(await until(async () => (await sleeping()) === 1)).toBe(true);
    client.abort();
    expect(await pending).toBeInstanceOf(Error);
    // cancelled long before its 900 ms were up
    expect(await until(async () => (await sleeping()) === 0, 500)).toBe(true);
  });

  it('twice the pool of abandoned slow requests does not starve the others', async () => {
    const clients = Array.from({ length: POOL * 2 }, () => new AbortController());
    const pending = clients.map((c) => fetch(slowUrl(900), { signal: c.signal }).catch((e: Error) => e));
    expect(await until(async () => (await sleeping()) === POOL)).toBe(true);
    for (const c of clients) c.abort();
    await Promise.all(pending);
    // the pool is free again at once: a read answers within a second (the slow ones would hold it for 900 ms more)
    const res = await fetch(`${s.url}/api/tags`, {
      headers: { authorization: `Bearer ${s.token}` },
      signal: AbortSignal.timeout(1000),
    });
    expect(res.status).toBe(200);
    expect(await until(async () => (await sleeping()) === 0, 1000)).toBe(true);
  });
});
