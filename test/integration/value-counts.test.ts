/**
 * A list filtered by one condition on a counted attribute (core/query/value-counts-sql.ts) answers
 * its total from the value counts: exactly the number of matching rows, in every scope, after
 * every kind of write, while rows hold values without a label, and after the sync changes what is
 * counted; and without counting the matching rows.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType } from '../../core/content-types/types.ts';
import { syncTables } from '../../database/sync.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { explain, nodes, readsDocuments, recordStatements, type Statement } from '../helpers/plans.ts';

const DOCUMENTS = 1500;
let t: TestApp;
let seen: Statement[];

// integers around every change of digit count and sign, and the int32 bounds
const EDGES = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, -1, -9, -10, -11, -99, -100, -101, 2147483647, -2147483648];

beforeAll(async () => {
  // off: every read runs its statement, whose plan is looked at
  t = await startApp({ env: { RESPONSE_CACHE: 'false' } });
  const res = await t.request('POST', '/api/articles', { data: { title: 'Template', summary: 'A few words.' } });
  expect(res.status).toBe(201);
  // copies of the REST-written row with varied values, a draft and a published row each, some in fr
  await t.sql.raw(
    `INSERT INTO articles (document_id, locale, published_at, data)
     SELECT substr(md5(g::text || 'vc'), 1, 24), CASE WHEN g % 7 = 0 THEN 'fr' ELSE 'en' END,
       CASE WHEN s.pub THEN now() END,
       t.data || jsonb_build_object('title', 'Article ' || g,
         'views', CASE WHEN g <= ? THEN (?::int[])[g] ELSE ((g * 7919) % 40001) - 20000 + (g % 3) * 100000 END,
         'isFeatured', g % 10 = 0, 'category', (ARRAY['news', 'tutorial', 'opinion'])[g % 3 + 1],
         'publishDate', to_char(date '2018-01-01' + (g * 37) % 3000, 'YYYY-MM-DD'))
     FROM generate_series(2, ?::int) g, (SELECT data FROM articles LIMIT 1) t, (VALUES (true), (false)) s(pub)`,
    [EDGES.length, EDGES, DOCUMENTS],
  );
  seen = recordStatements(t.app.db);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Attr = 'views' | 'publishDate' | 'category' | 'isFeatured';
type Op = '$eq' | '$in' | '$lt' | '$lte' | '$gt' | '$gte' | '$between' | '$gte,$lt' | '$gt,$lte' | '$gte,$lte';
interface Case {
  attr: Attr;
  op: Op;
  values: Array<string | number | boolean>;
  status: 'published' | 'draft';
  locale: 'en' | 'fr' | '*';
}

const SQL_OP: Record<string, string> = { $eq: '=', $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' };
const CAST: Record<Attr, string> = { views: 'numeric', publishDate: 'text', category: 'text', isFeatured: 'boolean' };

/** The query string of a case, in qs bracket notation. */
function query(c: Case): string {
  const key = `filters[${c.attr}][${c.op}]`;
  // two operators on one attribute: a lower and an upper bound
  const pair = c.op.split(',');
  const values =
    pair.length === 2
      ? pair.map((op, i) => `filters[${c.attr}][${op}]=${encodeURIComponent(String(c.values[i]))}`)
      : c.op === '$in' || c.op === '$between'
        ? c.values.map((v, i) => `${key}[${i}]=${encodeURIComponent(String(v))}`)
        : [`${key}=${encodeURIComponent(String(c.values[0]))}`];
  return [...values, `status=${c.status}`, `locale=${c.locale === '*' ? '*' : c.locale}`].join('&');
}

/** The rows matching a case, counted in SQL from the value columns (what the filter compares). */
async function expected(c: Case): Promise<number> {
  const column = `"v$${c.attr}"`;
  const cast = CAST[c.attr];
  const bindings: Array<string | string[]> = [];
  let where: string;
  if (c.op === '$in') {
    where = `${column} = ANY (?::${cast}[])`;
    bindings.push(c.values.map(String));
  } else if (c.op.includes(',')) {
    where = c.op
      .split(',')
      .map((op) => `${column} ${SQL_OP[op]} ?::${cast}`)
      .join(' AND ');
    bindings.push(...c.values.map(String));
  } else if (c.op === '$between') {
    where = `${column} BETWEEN ?::${cast} AND ?::${cast}`;
    bindings.push(...c.values.map(String));
  } else {
    where = `${column} ${SQL_OP[c.op]} ?::${cast}`;
    bindings.push(String(c.values[0]));
  }
  const scope = `published_at IS ${c.status === 'draft' ? '' : 'NOT '}NULL${c.locale === '*' ? '' : ' AND locale = ?'}`;
  if (c.locale !== '*') bindings.push(c.locale);
  const { rows } = await t.sql.raw(`SELECT count(*)::int AS n FROM articles WHERE ${where} AND ${scope}`, bindings);
  return rows[0].n;
}

/** The total GET /api/articles answers for a case, and the statement it ran (`more`: more parameters). */
async function total(c: Case, more = ''): Promise<{ total: number; statement: Statement }> {
  seen.length = 0;
  const res = await t.request('GET', `/api/articles?sort=title:asc&pagination[pageSize]=5&${query(c)}${more}`);
  expect(res.status, res.text).toBe(200);
  const reads = seen.filter((s) => readsDocuments(s.sql) && /from "articles"/i.test(s.sql));
  expect(reads).toHaveLength(1);
  return { total: res.body.meta.pagination.total, statement: reads[0] };
}

const VIEWS = fc.oneof(
  fc.constantFrom(...EDGES, 5000, -5000, 150000, 99999, 100000),
  fc.integer({ min: -30000, max: 230000 }),
);
const DATES = fc.oneof(
  fc.constantFrom('2018-01-01', '2019-12-31', '2020-01-01', '2020-02-29', '2025-12-31', '1999-01-01', '2030-01-01'),
  fc
    .integer({ min: 0, max: 3100 })
    .map((d) => new Date(Date.UTC(2017, 11, 1) + d * 86_400_000).toISOString().slice(0, 10)),
);
const RANGE_OPS: Op[] = ['$eq', '$in', '$lt', '$lte', '$gt', '$gte', '$between', '$gte,$lt', '$gt,$lte', '$gte,$lte'];

const caseOf = (attr: Attr, values: fc.Arbitrary<string | number | boolean>, ops: Op[]): fc.Arbitrary<Case> =>
  fc
    .record({
      attr: fc.constant(attr),
      op: fc.constantFrom(...ops),
      values: fc.array(values, { minLength: 2, maxLength: 3 }),
      status: fc.constantFrom('published' as const, 'draft' as const),
      locale: fc.constantFrom('en' as const, 'fr' as const, '*' as const),
    })
    .map((c) => ({
      ...c,
      values: c.op === '$in' ? c.values : c.values.slice(0, c.op === '$between' || c.op.includes(',') ? 2 : 1),
    }));

const CASES = fc.oneof(
  caseOf('views', VIEWS, RANGE_OPS),
  caseOf('publishDate', DATES, RANGE_OPS),
  caseOf('category', fc.constantFrom('news', 'tutorial', 'opinion', 'none'), ['$eq', '$in']),
  caseOf('isFeatured', fc.boolean(), ['$eq', '$in']),
);

/** Every case of a seeded run answers the rows' count; `cases` runs. */
async function checkTotals(seed: number, runs: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(CASES, async (c) => {
      expect((await total(c)).total, query(c)).toBe(await expected(c));
    }),
    { seed, numRuns: runs },
  );
}

/** The rows the plan took from articles (any scan), and whether it read the value counts. */
async function planOf(statement: Statement): Promise<{ rows: number; counts: boolean }> {
  const all = nodes(await explain(t.sql, statement, 'ANALYZE'));
  const rows = all
    .filter((p) => p['Relation Name'] === 'articles')
    .reduce((sum, p) => sum + Number(p['Actual Rows'] ?? 0) * Number(p['Actual Loops'] ?? 0), 0);
  const counts = all.some((p) => p['Relation Name'] === 'vellum_value_counts' && Number(p['Actual Loops']) > 0);
  return { rows, counts };
}

/** The articles rows the read of a case takes without a total (`pagination[withCount]=false`). */
async function uncounted(c: Case): Promise<number> {
  return (await planOf((await total(c, '&pagination[withCount]=false')).statement)).rows;
}

describe('a filtered total from the value counts', () => {
  it('is the number of matching rows, for every operator, value and scope (seeded property)', async () => {
    await checkTotals(16, 200);
  }, 120_000);

  it('counts a lower bound alone from the buckets after it, at every edge of digits, sign and date', async () => {
    const bounds: Array<[Attr, Array<string | number>]> = [
      ['views', [...EDGES, ...EDGES.map((e) => e + 1), 5000, 99999, 100000, 100001, -20000, 229999]],
      ['publishDate', ['2018-01-01', '2019-12-31', '2020-01-01', '2026-03-15', '1999-01-01', '2030-01-01']],
    ];
    for (const [attr, values] of bounds)
      for (const v of values)
        for (const op of ['$gt', '$gte'] as const)
          for (const locale of ['en', '*'] as const) {
            const c: Case = { attr, op, values: [v], status: 'published', locale };
            expect((await total(c)).total, query(c)).toBe(await expected(c));
          }
  });

  it('reads the counts, not the matching rows', async () => {
    const wide: Case[] = [
      { attr: 'views', op: '$gte', values: [0], status: 'published', locale: 'en' },
      { attr: 'publishDate', op: '$lt', values: ['2022-03-04'], status: 'published', locale: 'en' },
      { attr: 'category', op: '$eq', values: ['news'], status: 'draft', locale: 'en' },
      { attr: 'views', op: '$between', values: [-20000, 120000], status: 'published', locale: 'en' },
      { attr: 'isFeatured', op: '$in', values: [false, true], status: 'published', locale: 'en' },
      { attr: 'publishDate', op: '$gte,$lt', values: ['2018-06-01', '2024-01-01'], status: 'published', locale: 'en' },
    ];
    for (const c of wide) {
      const { total: n, statement } = await total(c);
      expect(n).toBe(await expected(c));
      expect(n).toBeGreaterThan(300);
      const plan = await planOf(statement);
      expect(plan.counts, query(c)).toBe(true);
      // the same rows as the page without a total: counting took none
      expect(plan.rows, query(c)).toBe(await uncounted(c));
    }
  });

  it('stays exact through REST writes, raw SQL, parallel writers and folds', async () => {
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.request('POST', '/api/articles?status=published', {
          data: {
            title: `New ${i}`,
            views: Math.abs(EDGES[i]),
            publishDate: `2021-0${(i % 9) + 1}-15`,
            category: 'opinion',
          },
        }),
      ),
    );
    for (const r of created) expect(r.status, r.text).toBe(201);
    const ids = created.map((r) => r.body.data.documentId as string);
    await Promise.all([
      ...ids.slice(0, 3).map((id) => t.request('DELETE', `/api/articles/${id}`)),
      ...ids.slice(3, 9).map((id, i) => t.request('PUT', `/api/articles/${id}`, { data: { views: i * 1000 } })),
      t.request('PUT', `/api/articles/${ids[9]}?locale=fr`, { data: { title: 'fr', views: 7 } }),
      t.request('POST', `/api/articles/${ids[10]}/actions/unpublish`),
      t.sql.raw(`UPDATE articles SET data = data || '{"views": 424242}' WHERE id IN (SELECT id FROM articles
        WHERE locale = 'en' ORDER BY id DESC LIMIT 40)`),
      t.sql.raw(`DELETE FROM articles WHERE id IN (SELECT id FROM articles WHERE locale = 'fr' ORDER BY id LIMIT 9)`),
    ]);
    await checkTotals(17, 60);
    // a fold takes a bounded slice of the deltas (the raw SQL above left thousands): until none is left
    for (let i = 0; i < 50; i++) {
      await t.sql.raw(`SELECT vellum_fold_value_counts('articles')`);
      const left = await t.sql.raw(`SELECT 1 FROM vellum_value_counts WHERE tbl = 'articles' AND NOT folded LIMIT 1`);
      if (left.rows.length === 0) break;
      await checkTotals(20 + i, 3);
    }
    const { rows } = await t.sql.raw(`SELECT
        count(*) FILTER (WHERE NOT folded)::int AS fresh,
        (SELECT count(*)::int FROM (SELECT 1 FROM vellum_value_counts WHERE tbl = 'articles'
          GROUP BY attr, level, label, locale, published HAVING count(*) > 1) x) AS repeated
      FROM vellum_value_counts WHERE tbl = 'articles'`);
    expect(rows[0]).toEqual({ fresh: 0, repeated: 0 });
    await checkTotals(18, 40);
  }, 120_000);

  it('appends deltas only for what an update changed: none when it left every counted value alone', async () => {
    // another session holds the fold's lock: no fold takes this transaction's deltas away
    const lock = await t.sql.transaction();
    const trx = await t.app.db.transaction();
    try {
      await lock.raw('SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))', ['vellum_value_counts', 'articles']);
      // the delta rows this transaction appended, per attribute
      const appended = async (): Promise<Record<string, number>> =>
        Object.fromEntries(
          (
            await trx.raw(`SELECT attr, count(*)::int AS n FROM vellum_value_counts
              WHERE NOT folded AND xmin = pg_current_xact_id()::xid GROUP BY 1`)
          ).rows.map((r: { attr: string; n: number }) => [r.attr, r.n]),
        );
      const some = `(SELECT id FROM articles WHERE data->>'views' ~ '^[0-9]+$' ORDER BY id LIMIT 5)`;
      await trx.raw(`UPDATE articles SET data = data || '{"title": "Renamed", "views": 0}' WHERE id IN ${some}`);
      const first = await appended();
      expect(Object.keys(first)).toEqual(['views']);
      await trx.raw(`UPDATE articles SET data = data || '{"title": "Renamed again"}' WHERE id IN ${some}`);
      expect(await appended()).toEqual(first);
      await trx.raw(`UPDATE articles SET data = data || '{"views": 1, "summary": "x"}' WHERE id IN ${some}`);
      const second = await appended();
      expect(Object.keys(second)).toEqual(['views']);
      expect(second.views).toBeGreaterThan(first.views);
      await trx.raw(`UPDATE articles SET data = data || '{"category": "news"}' WHERE id IN ${some}`);
      expect(Object.keys(await appended()).sort()).toEqual(['category', 'views']);
    } finally {
      await trx.rollback();
      await lock.rollback();
    }
  });

  it('counts the rows while a scope holds a value without a label, and the counts again after', async () => {
    const c: Case = { attr: 'publishDate', op: '$gte', values: ['2020-01-01'], status: 'published', locale: 'en' };
    const odd = `(SELECT id FROM articles WHERE locale = 'en' AND published_at IS NOT NULL ORDER BY id LIMIT 2)`;
    // text a filter compares as text, whose order need not be its bytes' order: no label
    await t.sql.raw(`UPDATE articles SET data = data || '{"publishDate": "2020-1-5"}' WHERE id IN ${odd}`);
    const before = await total(c);
    expect(before.total).toBe(await expected(c));
    expect((await planOf(before.statement)).counts).toBe(true);
    expect((await planOf(before.statement)).rows).toBeGreaterThan((await uncounted(c)) + 300);
    // an integer attribute holding a fraction (raw SQL): the same
    await t.sql.raw(`UPDATE articles SET data = data || '{"views": 2.5}' WHERE id IN ${odd}`);
    const views: Case = { attr: 'views', op: '$lt', values: [3], status: 'published', locale: 'en' };
    expect((await total(views)).total).toBe(await expected(views));
    await t.sql.raw(
      `UPDATE articles SET data = data || '{"publishDate": "2020-01-05", "views": 2}' WHERE id IN ${odd}`,
    );
    const after = await total(c);
    expect(after.total).toBe(await expected(c));
    expect((await planOf(after.statement)).rows).toBe(await uncounted(c));
    expect((await total(views)).total).toBe(await expected(views));
  });

  it('follows the schema: an attribute no longer counted loses its counts, one counted again is counted', async () => {
    const article = t.app.registry.contentType('api::article.article');
    const { views: _views, ...others } = article.attributes;
    const without: ContentType = { ...article, attributes: others };
    await t.sql.transaction((trx) => syncTables(trx, [without], t.app.registry));
    const attrs = async (): Promise<string[]> =>
      (await t.sql.raw(`SELECT DISTINCT attr FROM vellum_value_counts WHERE tbl = 'articles' ORDER BY 1`)).rows.map(
        (r: { attr: string }) => r.attr,
      );
    expect(await attrs()).toEqual(['category', 'isFeatured', 'publishDate']);
    await t.sql.raw(`UPDATE articles SET data = data || '{"views": 5}' WHERE id IN (SELECT id FROM articles LIMIT 3)`);
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await attrs()).toEqual(['category', 'isFeatured', 'publishDate', 'views']);
    await checkTotals(19, 40);
  }, 120_000);
});
