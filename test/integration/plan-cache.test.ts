/**
 * A read runs as a named prepared statement, and PostgreSQL keeps its generic plan only when that
 * plan is estimated no worse than the custom ones: otherwise it plans the statement on every run,
 * which cost a 25-article `populate=*` list a quarter of its time. An unfiltered list writes its
 * page size into the SQL so that its generic plan is kept; a filtered one keeps it bound and is
 * planned for its values, then, read again, gets its values written in (read-statements.ts) and
 * keeps the plan made for them. Observed in `pg_prepared_statements` of the app's only connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { explain, nodes } from '../helpers/plans.ts';

let t: TestApp;

interface Prepared {
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

beforeAll(async () => {
  // one pooled connection: the app's statements and this test's look-ups share its session
  t = await startApp({ env: { DATABASE_POOL_MAX: '1', RESPONSE_CACHE: 'false' } });
  const res = await t.request('POST', '/api/articles', { data: { title: 'Template', views: 1 } });
  expect(res.status).toBe(201);
  // enough rows that a tenth of the table (a bound LIMIT's estimate) costs more than a page, and
  // that a repeated filtered read gets its values written in (read-statements.ts: 5000 counted)
  await t.sql.raw(
    `INSERT INTO articles (document_id, locale, published_at, data, created_at, updated_at)
     SELECT substr(md5(g::text), 1, 24), 'en', now(),
       t.data || jsonb_build_object('title', 'Article ' || md5(g::text), 'views', g), now(), now()
     FROM generate_series(2, 6000) g, (SELECT data FROM articles LIMIT 1) t`,
  );
  await t.sql.raw('ANALYZE articles');
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Run GET `path` `times` times, then the prepared statement that read articles on the app's connection. */
async function statementOf(path: string, times: number): Promise<Prepared & { answer: string }> {
  let answer = '';
  for (let i = 0; i < times; i++) {
    const res = await t.request('GET', path);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    answer = res.text;
  }
  const { rows } = (await t.app.db.raw(
    `SELECT statement, generic_plans::int, custom_plans::int FROM pg_prepared_statements
     WHERE statement LIKE '%from "articles" as "r0"%' AND statement NOT LIKE '%pg_prepared_statements%'
     ORDER BY prepare_time DESC LIMIT 1`,
  )) as { rows: Prepared[] };
  expect(rows).toHaveLength(1);
  return { ...rows[0], answer };
}

describe('plans of list reads', () => {
  it('keeps the generic plan of an unfiltered list, populated or not', async () => {
    for (const path of ['/api/articles?sort=title:asc', '/api/articles?sort=title:asc&populate=*']) {
      const read = await statementOf(path, 12);
      expect(read.statement).toMatch(/ limit 25\b/);
      // PostgreSQL makes five custom plans before it compares; every later run reuses the generic one
      expect(read.custom_plans).toBeLessThanOrEqual(5);
      expect(read.generic_plans).toBeGreaterThanOrEqual(7);
    }
  });

  it('plans a filtered list for its values: bound when first read, then written in, its plan kept', async () => {
    // an unfiltered list counts the table: 6000 rows, large enough
    expect((await t.request('GET', '/api/articles')).body.meta.pagination.total).toBe(6000);
    const path = '/api/articles?sort=title:asc&filters[views][$gte]=250';
    const first = await statementOf(path, 1);
    expect(first.statement).toMatch(/ limit \$\d+/);
    expect(first.custom_plans + first.generic_plans).toBe(1);
    const again = await statementOf(path, 12);
    // no parameter left: PostgreSQL plans it once and runs that plan every time
    expect(again.statement).not.toMatch(/\$\d/);
    expect(again.statement).toMatch(/'250'/);
    expect(again.statement).toMatch(/ limit '25'/);
    expect(again.custom_plans).toBe(0);
    expect(again.generic_plans).toBe(12);
    // the same answer either way
    expect(again.answer).toBe(first.answer);
  });

  it('gives each set of values its own plan: a rare value reads its index, a common one the sort', async () => {
    const indexes = async (views: number): Promise<string[]> => {
      const read = await statementOf(`/api/articles?sort=title:asc&filters[views][$gte]=${views}`, 3);
      expect(read.statement).toMatch(new RegExp(`'${views}'`));
      const plan = await explain(t.app.db, { sql: read.statement, bindings: [] });
      return nodes(plan).flatMap((n) => (n['Index Name']?.startsWith('articles_') ? [n['Index Name']] : []));
    };
    // 6 of 6000 articles, then 5999 of them
    const rare = await indexes(5995);
    const common = await indexes(2);
    expect(rare.some((name) => /^articles_views_/.test(name))).toBe(true);
    expect(rare.some((name) => /^articles_title_/.test(name))).toBe(false);
    expect(common.some((name) => /^articles_title_/.test(name))).toBe(true);
  });
});

describe('prepared writes', () => {
  it("runs a write's parameterized statements as prepared ones, parsed once per connection", async () => {
    const created = await t.request('POST', '/api/articles', { data: { title: 'Edited twice' } });
    expect(created.status).toBe(201);
    const { documentId } = created.body.data;
    const prepared = async (): Promise<string[]> => {
      const { rows } = (await t.app.db.raw('SELECT statement FROM pg_prepared_statements')) as {
        rows: Array<{ statement: string }>;
      };
      return rows.map((r) => r.statement);
    };
    const put = (title: string) => t.request('PUT', `/api/articles/${documentId}`, { data: { title } });
    expect((await put('First edit')).status).toBe(200);
    const after = await prepared();
    // the draft's update and the published copy's insert, each prepared
    expect(after.some((sql) => /^update "articles" set "data" = \$1/.test(sql))).toBe(true);
    expect(after.some((sql) => /^insert into "articles"/.test(sql))).toBe(true);
    expect((await put('Second edit')).status).toBe(200);
    // the same shapes again: nothing new to prepare, and the edit landed
    expect((await prepared()).sort()).toEqual([...after].sort());
    const read = await t.request('GET', `/api/articles/${documentId}`);
    expect(read.body.data.title).toBe('Second edit');
  });
});
