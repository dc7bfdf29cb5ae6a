/**
 * Reads cost a page, not a table: the statement the app runs for a sorted or filtered list
 * reaches the articles through the schema's read indexes (database/sync.ts), never a
 * sequential scan nor a sort of every row. Plans are looked at with EXPLAIN ANALYZE of the exact
 * SQL and bindings the app sent, on 3000 documents (a draft and a published row each in `en`,
 * 300 more in `fr`), analyzed as autovacuum would have them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType } from '../../core/content-types/types.ts';
import { syncTables } from '../../database/sync.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { explain, nodes, type PlanNode, readsDocuments, recordStatements, type Statement } from '../helpers/plans.ts';

const DOCUMENTS = 3000;
let t: TestApp;
let seen: Statement[];

/** Copies of one REST-created article, in its row format, with varied values (as scripts/bench-scale.ts). */
async function seed(locale: string, from: number, to: number): Promise<void> {
  await t.sql.raw(
    `INSERT INTO articles (document_id, locale, published_at, data, created_at, updated_at)
     SELECT substr(md5(g::text || 'doc'), 1, 24), ?, CASE WHEN s.pub THEN now() - g * interval '1 minute' END,
       t.data || jsonb_build_object('title', 'Article ' || md5(g::text), 'views', (g * 7919) % 100000,
         'rating', ((g * 31) % 50) / 10.0, 'price', ((g * 17) % 10000) / 100.0, 'isFeatured', g % 10 = 0,
         'publishDate', to_char(date '2020-01-01' + (g % 2000), 'YYYY-MM-DD'),
         'readingTime', to_char(time '00:00' + g * interval '7 seconds', 'HH24:MI:SS.MS'),
         'category', (ARRAY['news', 'tutorial', 'opinion'])[g % 3 + 1]),
       now() - g * interval '1 minute', now() - g * interval '30 seconds'
     FROM generate_series(?::int, ?::int) g, (SELECT data FROM articles LIMIT 1) t, (VALUES (true), (false)) s(pub)`,
    [locale, from, to],
  );
}

beforeAll(async () => {
  t = await startApp();
  const res = await t.request('POST', '/api/articles', { data: { title: 'Template', summary: 'A few words.' } });
  expect(res.status).toBe(201);
  await seed('en', 2, DOCUMENTS);
  await seed('fr', 2, 301);
  // the statistics and visibility map autovacuum keeps (it is not waited for: no timing in tests)
  await t.sql.raw('VACUUM ANALYZE articles');
  seen = recordStatements(t.app.db);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** The plan of the one statement the app ran for GET /api/articles?<query>, and the total it answered. */
async function planOf(query: string): Promise<{ plan: PlanNode; total: number; ids: number[] }> {
  seen.length = 0;
  const res = await t.request('GET', `/api/articles?pagination[pageSize]=25&${query}`);
  expect(res.status, res.text).toBe(200);
  const read = seen.filter((s) => readsDocuments(s.sql) && /from "articles"/i.test(s.sql));
  expect(read).toHaveLength(1);
  const plan = await explain(t.sql, read[0], 'ANALYZE');
  return { plan, total: res.body.meta.pagination.total, ids: res.body.data.map((d: { id: number }) => d.id) };
}

/**
 * Rows the plan took from the articles table by other means than an index-only scan (which
 * reads index entries, not documents): the page's rows, plus, for a filtered read, the rows the
 * count has to test.
 */
const documentRows = (plan: PlanNode): number =>
  nodes(plan)
    .filter((p) => p['Relation Name'] === 'articles' && p['Node Type'] !== 'Index Only Scan')
    .reduce((sum, p) => sum + Number(p['Actual Rows']) * Number(p['Actual Loops']), 0);

function expectPageSized(plan: PlanNode, matching: number): void {
  const all = nodes(plan);
  expect(all.filter((p) => p['Relation Name'] === 'articles' && p['Node Type'] === 'Seq Scan')).toEqual([]);
  // no sort of every row: a sort (or incremental sort) takes in no more than the matching rows' share
  for (const sort of all.filter((p) => /Sort/.test(p['Node Type']))) {
    const input = (sort.Plans ?? []).reduce((n, p) => n + Number(p['Actual Rows']) * Number(p['Actual Loops']), 0);
    expect(input).toBeLessThanOrEqual(Math.max(100, matching));
  }
  expect(all.some((p) => p['Relation Name'] === 'articles' && /Index/.test(p['Node Type']))).toBe(true);
  // the page, what ties to its last key, and the rows a filter matches (counted): never the table
  expect(documentRows(plan)).toBeLessThanOrEqual(150 + 2 * matching);
}

describe('a sorted page reads the page, through the read index of its key', () => {
  const sorts = [
    'title:asc', // string (maxLength 200)
    'title:desc',
    'views:desc', // integer
    'rating:desc', // float
    'price:asc', // decimal
    'isFeatured:asc', // boolean
    'publishDate:desc', // date
    'readingTime:asc', // time
    'category:asc', // enumeration
    'createdAt:desc',
    'updatedAt:asc',
    'publishedAt:desc',
    'id:desc',
  ];
  for (const sort of sorts) {
    it(sort, async () => {
      const { plan, total } = await planOf(`sort=${sort}`);
      expect(total).toBe(DOCUMENTS);
      expectPageSized(plan, 0);
      // the total is the sum of the scope's row counts, not a scan of the articles
      expect(nodes(plan).some((p) => p['Relation Name'] === 'vellum_row_counts')).toBe(true);
    });
  }

  it('unsorted, the drafts, and another locale', async () => {
    expectPageSized((await planOf('')).plan, 0);
    expectPageSized((await planOf('status=draft&sort=title:asc')).plan, 0);
    const fr = await planOf('locale=fr&sort=views:desc');
    expect(fr.total).toBe(300);
    expectPageSized(fr.plan, 0);
  });

  it('answers in the same order as sorting every row', async () => {
    const { ids } = await planOf('sort=rating:desc&pagination[page]=3');
    const { rows } = await t.sql.raw(
      `SELECT id FROM articles WHERE published_at IS NOT NULL AND locale = 'en'
       ORDER BY (data->>'rating')::numeric DESC NULLS FIRST, id LIMIT 25 OFFSET 50`,
    );
    expect(ids).toEqual(rows.map((r: { id: number }) => r.id));
  });

  it('a deep page reads the skipped rows as index entries, then only its own rows, in the same order', async () => {
    const pages: Array<[string, string]> = [
      ['sort=title:desc&pagination[page]=100', `(data->>'title') DESC`],
      // a key with few values: the order within each comes from the id
      ['sort=isFeatured:asc&pagination[page]=90', `(data->>'isFeatured')::boolean ASC`],
      ['pagination[page]=60', 'id ASC'],
    ];
    for (const [query, order] of pages) {
      const { plan, ids } = await planOf(query);
      const { rows } = await t.sql.raw(
        `SELECT id FROM articles WHERE published_at IS NOT NULL AND locale = 'en'
         ORDER BY ${order}, id LIMIT 25 OFFSET ?`,
        [25 * (Number(/page\]=(\d+)/.exec(query)?.[1]) - 1)],
      );
      expect(ids, query).toEqual(rows.map((r: { id: number }) => r.id));
      // 1475 to 2475 rows skipped: walked in the index alone, and the page's rows read by id
      const onlyIndex = nodes(plan).filter(
        (p) => p['Relation Name'] === 'articles' && p['Node Type'] === 'Index Only Scan',
      );
      expect(onlyIndex.length, query).toBe(1);
      expect(documentRows(plan), query).toBeLessThanOrEqual(25);
    }
  });
});

describe('a filtered page reads the matching rows through an index', () => {
  const filters: Array<[string, number]> = [
    ['filters[views][$gte]=99000', 30], // integer range
    ['filters[views][$lt]=1000&sort=title:asc', 40],
    ['filters[views][$between][0]=10000&filters[views][$between][1]=11000&sort=publishDate:desc', 30],
    ['filters[views][$in][0]=15838&filters[views][$in][1]=23757', 2],
    ['filters[views][$eq]=15838', 1],
    ['filters[price][$gt]=99.5&sort=price:desc', 15],
    ['filters[rating][$lte]=0.1&sort=views:desc', 120],
    ['filters[publishDate][$lt]=2020-01-10&sort=title:asc', 20],
    ['filters[readingTime][$gte]=05:40:00&sort=readingTime:asc', 120],
    ['filters[title][$eq]=Article%20c81e728d9d4c2f636f067f89cc14862c', 1],
    ['filters[createdAt][$gt]=2100-01-01', 0],
  ];
  for (const [query, atMost] of filters) {
    it(query, async () => {
      const { plan, total } = await planOf(query);
      expect(total).toBeLessThanOrEqual(atMost);
      expectPageSized(plan, total);
    });
  }

  it('a filtered total reads index entries only (an index-only scan of the generated column)', async () => {
    await t.sql.raw('VACUUM articles');
    const { plan, total } = await planOf('filters[views][$gte]=50000&sort=title:asc');
    expect(total).toBeGreaterThan(1000);
    expect(nodes(plan).some((p) => p['Node Type'] === 'Index Only Scan' && /views/.test(p['Index Name'] ?? ''))).toBe(
      true,
    );
    // the page's 25 rows, and whatever ties to its last key: not the 1500 matching ones
    expect(documentRows(plan)).toBeLessThanOrEqual(150);
  });

  it('a broad equality with another sort walks the sort index and filters on the way', async () => {
    const { plan, total } = await planOf('filters[category][$eq]=news&sort=title:asc');
    expect(total).toBe(1000);
    expectPageSized(plan, total);
  });
});

describe('the row counts behind an unfiltered total', () => {
  const totals = async (): Promise<number[]> =>
    Promise.all(
      ['', 'status=draft', 'locale=fr', 'locale=*'].map(
        async (q) => (await t.request('GET', `/api/articles?${q}`)).body.meta.pagination.total,
      ),
    );
  const counted = async (): Promise<number[]> => {
    const n = async (where: string): Promise<number> =>
      (await t.sql.raw(`SELECT count(*)::int AS n FROM articles WHERE ${where}`)).rows[0].n;
    return [
      await n(`published_at IS NOT NULL AND locale = 'en'`),
      await n(`published_at IS NULL AND locale = 'en'`),
      await n(`published_at IS NOT NULL AND locale = 'fr'`),
      await n('published_at IS NOT NULL'),
    ];
  };

  it('stay exact through concurrent creates, publishes, unpublishes, deletes and raw SQL', async () => {
    expect(await totals()).toEqual(await counted());
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.request('POST', `/api/articles${i % 3 === 0 ? '?status=draft' : ''}`, { data: { title: `Counted ${i}` } }),
      ),
    );
    for (const r of created) expect(r.status, r.text).toBe(201);
    const ids = created.map((r) => r.body.data.documentId as string);
    await Promise.all([
      ...ids.slice(0, 6).map((id) => t.request('DELETE', `/api/articles/${id}`)),
      ...ids.slice(6, 12).map((id) => t.request('PUT', `/api/articles/${id}?locale=fr`, { data: { title: 'fr' } })),
      ...ids.slice(12, 18).map((id) => t.request('PUT', `/api/articles/${id}`, { data: { views: 3 } })),
      t.sql.raw(`DELETE FROM articles WHERE id IN (SELECT id FROM articles WHERE locale = 'fr' ORDER BY id LIMIT 5)`),
      // a scope change (drafts of documents with no fr version moved to fr), and an update that changes none
      t.sql.raw(`UPDATE articles SET locale = 'fr' WHERE id IN (SELECT id FROM articles
        WHERE locale = 'en' AND published_at IS NULL AND data->>'title' LIKE 'Article %' ORDER BY id DESC LIMIT 3)`),
      t.sql.raw(`UPDATE articles SET published_at = published_at + interval '1 second' WHERE id IN (SELECT id
        FROM articles WHERE locale = 'en' AND published_at IS NOT NULL ORDER BY id LIMIT 4)`),
    ]);
    expect(await totals()).toEqual(await counted());
    // the deltas folded into one row per scope answer the same
    await t.sql.raw(`WITH gone AS (DELETE FROM vellum_row_counts WHERE tbl = 'articles' RETURNING locale, published, n)
      INSERT INTO vellum_row_counts SELECT 'articles', locale, published, sum(n) FROM gone GROUP BY 1, 2, 3`);
    expect(await totals()).toEqual(await counted());
  });

  it('are counted again by the sync when a table has lost its count trigger', async () => {
    await t.sql.raw('DROP TRIGGER vellum_count_insert ON articles');
    await t.sql.raw(`DELETE FROM vellum_row_counts WHERE tbl = 'articles'`);
    await t.sql.transaction((trx) =>
      syncTables(trx, [t.app.registry.contentType('api::article.article')], t.app.registry),
    );
    expect(await totals()).toEqual(await counted());
    expect((await t.request('POST', '/api/articles', { data: { title: 'After' } })).status).toBe(201);
    expect(await totals()).toEqual(await counted());
  });
});

describe('the sync', () => {
  const readIndexes = async (): Promise<string[]> =>
    (
      await t.sql.raw(
        `SELECT indexname FROM pg_indexes WHERE tablename = 'articles' AND indexname LIKE '%\\_rx' ORDER BY 1`,
      )
    ).rows.map((r: { indexname: string }) => r.indexname);

  it('builds one index per sortable attribute and status, and follows schema changes idempotently', async () => {
    const article = t.app.registry.contentType('api::article.article');
    const before = await readIndexes();
    // 8 indexed attributes and createdAt, updatedAt, id per status; publishedAt for published rows only
    expect(before).toHaveLength(2 * 11 + 1);
    expect(before.filter((n) => n.startsWith('articles_views_'))).toHaveLength(2);
    // unbounded text (no maxLength), JSON, blocks and private attributes get none
    for (const name of ['summary', 'slug', 'meta', 'body', 'internalnotes', 'contactemail']) {
      expect(before.filter((n) => n.startsWith(`articles_${name}_`))).toEqual([]);
    }
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await readIndexes()).toEqual(before);

    const { views: _, ...rest } = article.attributes;
    const changed: ContentType = {
      ...article,
      attributes: { ...rest, score: { type: 'integer' }, summary: { type: 'text', maxLength: 300 } },
    };
    await t.sql.transaction((trx) => syncTables(trx, [changed], t.app.registry));
    const after = await readIndexes();
    expect(after.filter((n) => n.startsWith('articles_views_'))).toEqual([]);
    expect(after.filter((n) => n.startsWith('articles_score_'))).toHaveLength(2);
    expect(after.filter((n) => n.startsWith('articles_summary_'))).toHaveLength(2);
    expect(after).toHaveLength(before.length + 2);

    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await readIndexes()).toEqual(before);
  });

  const valueColumns = async (): Promise<string[]> =>
    (
      await t.sql.raw(
        `SELECT attname FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attnum > 0
         AND NOT attisdropped AND attgenerated = 's' ORDER BY 1`,
      )
    ).rows.map((r: { attname: string }) => r.attname);

  it('keeps a generated column per indexed attribute, following schema changes idempotently', async () => {
    const article = t.app.registry.contentType('api::article.article');
    const before = await valueColumns();
    expect(before).toHaveLength(8);
    expect(before).toContain('v$views');
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await valueColumns()).toEqual(before);
    const { views: _, ...rest } = article.attributes;
    const changed: ContentType = { ...article, attributes: { ...rest, score: { type: 'integer' } } };
    await t.sql.transaction((trx) => syncTables(trx, [changed], t.app.registry));
    expect(await valueColumns()).toEqual([...before.filter((c) => c !== 'v$views'), 'v$score'].sort());
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await valueColumns()).toEqual(before);
    // re-added: every row's value computed again
    const { rows } = await t.sql.raw(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE "v$views" = ("data"->>'views')::numeric)::int AS same
       FROM articles WHERE "data"->>'views' IS NOT NULL`,
    );
    expect(rows[0].n).toBeGreaterThan(2 * DOCUMENTS);
    expect(rows[0].same).toBe(rows[0].n);
  });

  it('indexes an attribute retyped over values that do not cast: they read as NULL, writes never fail', async () => {
    const article = t.app.registry.contentType('api::article.article');
    const before = await readIndexes();
    // every row holds text in `summary`: as an integer, each reads as NULL
    const retyped: ContentType = { ...article, attributes: { ...article.attributes, summary: { type: 'integer' } } };
    const report = await t.sql.transaction((trx) => syncTables(trx, [retyped], t.app.registry));
    expect(report.unindexed).toEqual([]);
    expect((await readIndexes()).filter((n) => n.startsWith('articles_summary_'))).toHaveLength(2);
    const { rows } = await t.sql.raw(`SELECT count("v$summary")::int AS n FROM articles`);
    expect(rows[0].n).toBe(0);
    // a stored value that is not a number is written, and reads as no value
    await t.sql.raw(
      `INSERT INTO articles (document_id, locale, data) VALUES ('x1', 'en', '{"summary": "12 apples"}'),
       ('x2', 'en', '{"summary": "NaN"}'), ('x3', 'en', '{"summary": "12"}')`,
    );
    const { rows: values } = await t.sql.raw(
      `SELECT "v$summary"::text AS v FROM articles WHERE document_id IN ('x1', 'x2', 'x3') ORDER BY document_id`,
    );
    expect(values.map((r: { v: string | null }) => r.v)).toEqual([null, null, '12']);
    await t.sql.raw(`DELETE FROM articles WHERE document_id IN ('x1', 'x2', 'x3')`);
    expect((await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry))).unindexed).toEqual([]);
    expect(await readIndexes()).toEqual(before);
  });

  it('has the planner take statistics from the generated columns (a partial index gives it none)', async () => {
    const { rows } = await t.sql.raw(
      `SELECT stxname FROM pg_statistic_ext WHERE stxrelid = 'articles'::regclass AND stxname LIKE '%\\_rs'`,
    );
    // every indexed attribute has a column: no expression statistics left to keep
    expect(rows).toHaveLength(0);
    await t.sql.raw('ANALYZE articles');
    const { rows: stats } = await t.sql.raw(
      `SELECT unnest(most_common_vals::text::text[]) AS v FROM pg_stats
       WHERE tablename = 'articles' AND attname = 'v$category'`,
    );
    expect(stats.map((r: { v: string }) => r.v).sort()).toEqual(['news', 'opinion', 'tutorial']);
  });

  it('sets the autovacuum parameters on document tables and the tables kept beside them', async () => {
    const options = async (table: string): Promise<string[]> =>
      (await t.sql.raw(`SELECT reloptions FROM pg_class WHERE relname = ?`, [table])).rows[0].reloptions;
    const documents = [
      'autovacuum_analyze_scale_factor=0.02',
      'autovacuum_analyze_threshold=1000',
      'autovacuum_vacuum_threshold=1000',
      'autovacuum_vacuum_insert_threshold=1000',
    ];
    expect(await options('articles')).toEqual(expect.arrayContaining(documents));
    const { rows } = await t.sql.raw(
      `SELECT relname FROM pg_class WHERE relname LIKE 'vellum\\_links\\_%' AND relkind = 'r'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { relname } of rows) expect(await options(relname)).toEqual(expect.arrayContaining(documents));
    for (const counts of ['vellum_row_counts', 'vellum_value_counts'])
      expect(await options(counts)).toEqual(
        expect.arrayContaining([
          'autovacuum_analyze_threshold=1000',
          'autovacuum_analyze_scale_factor=4',
          'autovacuum_vacuum_threshold=5000',
          'autovacuum_vacuum_insert_threshold=-1',
        ]),
      );
  });
});
