/**
 * Page reads at 1k and at 100k articles, right after seeding (no manual ANALYZE or VACUUM):
 * `npx tsx scripts/bench-scale.ts [--articles 1000,100000] [--requests 200] [--wait 15]`.
 *
 * One article is created through REST (the template of the app's exact row format), the rest
 * copied from it in one INSERT … SELECT with varied titles, numbers, dates and categories, a
 * draft and a published row each, as publishing leaves them. Then, for each workload, the SQL the
 * app ran for the HTTP request is EXPLAINed (ANALYZE, BUFFERS) and the request timed
 * sequentially (median of `--requests`); again after `--wait` seconds, once autovacuum has
 * had its chance. `--no-read-indexes` drops the schema's read indexes first (to compare).
 * Also: the time to create articles through REST with and without the read indexes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedPostgres } from '../database/embedded.ts';
import { createTestApp, type TestApp } from '../testing.ts';
import {
  explain,
  nodes,
  type PlanNode,
  readsDocuments,
  recordStatements,
  type Statement,
} from '../test/helpers/plans.ts';
import { ROOT } from './root.ts';

const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '1000,100000' },
    requests: { type: 'string', default: '200' },
    wait: { type: 'string', default: '15' },
    'no-read-indexes': { type: 'boolean', default: false },
    creates: { type: 'string', default: '300' },
  },
});

const WORKLOADS: Record<string, string> = {
  list: '',
  'sort title': 'sort=title:asc',
  'sort title, no count': 'sort=title:asc&pagination[withCount]=false',
  'sort publishDate desc': 'sort=publishDate:desc',
  'sort views desc': 'sort=views:desc',
  'views $gte + sort title': 'filters[views][$gte]=90000&sort=title:asc',
  'views $gte + sort, no count': 'filters[views][$gte]=90000&sort=title:asc&pagination[withCount]=false',
  'views $gte (10%)': 'filters[views][$gte]=90000',
  'category $eq + sort title': 'filters[category][$eq]=news&sort=title:asc',
  'views $in': 'filters[views][$in][0]=15838&filters[views][$in][1]=23757&filters[views][$in][2]=31676',
  'publishDate $between + sort':
    'filters[publishDate][$between][0]=2021-01-01&filters[publishDate][$between][1]=2021-01-31&sort=publishDate:desc',
};

/** The plan as an indented tree: node, relation or index, actual rows × loops. */
const outline = (p: PlanNode, depth = 2): string =>
  [
    `${' '.repeat(depth)}${p['Node Type']} ${p['Index Name'] ?? p['Relation Name'] ?? ''} ` +
      `rows=${p['Actual Rows']}×${p['Actual Loops']}${p['Sort Key'] ? ` key=${p['Sort Key'].join(',')}` : ''}`,
    ...(p.Plans ?? []).map((c) => outline(c, depth + 2)),
  ].join('\n');

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function seed(t: TestApp, n: number): Promise<void> {
  const res = await t.request('POST', '/api/articles', {
    data: {
      title: 'Template',
      views: 1,
      rating: 4.5,
      price: 9.99,
      isFeatured: false,
      publishDate: '2024-01-01',
      category: 'news',
      readingTime: '00:05:00.000',
      summary: 'A summary of a few words.',
    },
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`seed: ${res.status} ${res.text}`);
  // every copy is the template's row with its own values: a draft and a published row per document
  await t.sql.raw(
    `INSERT INTO articles (document_id, locale, published_at, data, created_at, updated_at)
     SELECT substr(md5(g::text || 'doc'), 1, 24), t.locale, CASE WHEN s.pub THEN now() END,
       t.data || jsonb_build_object('title', 'Article ' || md5(g::text), 'slug', 'article-' || g,
         'views', (g * 7919) % 100000, 'rating', ((g * 31) % 50) / 10.0, 'price', ((g * 17) % 10000) / 100.0,
         'isFeatured', g % 10 = 0, 'publishDate', to_char(date '2020-01-01' + (g % 2000), 'YYYY-MM-DD'),
         'category', (ARRAY['news', 'tutorial', 'opinion'])[g % 3 + 1]),
       now(), now()
     FROM generate_series(2, ?::int) g, (SELECT locale, data FROM articles WHERE published_at IS NOT NULL LIMIT 1) t,
       (VALUES (true), (false)) s(pub)`,
    [n],
  );
}

async function measure(
  t: TestApp,
  seen: Statement[],
  requests: number,
  label: string,
  reads: Map<string, Statement>,
): Promise<void> {
  console.log(`\n  ${label}`);
  console.log('  workload                      | median ms | total | plan: exec ms, buffers, nodes');
  for (const [name, query] of Object.entries(WORKLOADS)) {
    const url = `/api/articles?pagination[pageSize]=25${query ? `&${query}` : ''}`;
    seen.length = 0;
    const first = await t.request('GET', url);
    if (first.status !== 200) throw new Error(`${url}: ${first.status} ${first.text}`);
    // a repeated request is answered by the response cache: its plan now is that of the SQL seen first
    const read = seen.find((s) => readsDocuments(s.sql) && /from "articles"/i.test(s.sql)) ?? reads.get(name);
    if (read) reads.set(name, read);
    let planText = '';
    if (read) {
      const plan = await explain(t.sql, read, 'ANALYZE, BUFFERS');
      const exec = (plan.root as { 'Execution Time': number })['Execution Time'];
      const kinds = nodes(plan)
        .filter((p) => p['Relation Name'] === 'articles' || /Sort|Aggregate/.test(p['Node Type']))
        .map((p) => `${p['Node Type']}${p['Index Name'] ? `(${p['Index Name'].replace(/^articles_/, '')})` : ''}`);
      const hit = Number(plan['Shared Hit Blocks'] ?? 0) + Number(plan['Shared Read Blocks'] ?? 0);
      if (process.env.PLANS) console.log(outline(plan));
      planText = `${exec.toFixed(2)} ms, ${hit} buf, ${[...new Set(kinds)].join(' > ')}`;
    }
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const start = performance.now();
      await t.request('GET', url);
      times.push(performance.now() - start);
    }
    const total = (first.body as { meta: { pagination: { total?: number } } }).meta.pagination.total ?? '-';
    console.log(
      `  ${name.padEnd(29)} | ${median(times).toFixed(2).padStart(9)} | ${String(total).padStart(5)} | ${planText}`,
    );
  }
}

async function creates(t: TestApp, n: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await t.request('POST', '/api/articles', {
      data: { title: `Created ${i}`, views: i, rating: 3, price: 1.5, publishDate: '2024-02-02', category: 'opinion' },
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`create: ${res.status}`);
  }
  return (performance.now() - start) / n;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vellum-scale-'));
  const pg = await startEmbeddedPostgres({ dataDir, database: 'postgres' });
  try {
    for (const n of values.articles.split(',').map(Number)) {
      const t = await createTestApp({
        appDir: path.join(ROOT, 'examples/blog'),
        adminUrl: pg.url,
        env: { VELLUM_DEMO_CONTENT: 'false' },
      });
      try {
        if (values['no-read-indexes']) {
          const { rows } = await t.sql.raw(`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%\\_rx'`);
          for (const r of rows as Array<{ indexname: string }>) await t.sql.raw('DROP INDEX ??', [r.indexname]);
        }
        const seen = recordStatements(t.app.db);
        const started = performance.now();
        await seed(t, n);
        console.log(
          `\n${n} articles (${2 * n} rows) seeded in ${((performance.now() - started) / 1000).toFixed(1)} s` +
            `${values['no-read-indexes'] ? ', without read indexes' : ''}`,
        );
        const reads = new Map<string, Statement>();
        await measure(t, seen, Number(values.requests), 'right after seeding', reads);
        await new Promise((r) => setTimeout(r, Number(values.wait) * 1000));
        const { rows } = await t.sql.raw(
          `SELECT last_autoanalyze, last_autovacuum, n_live_tup FROM pg_stat_user_tables WHERE relname = 'articles'`,
        );
        console.log(`  autovacuum on articles: ${JSON.stringify(rows[0])}`);
        await measure(t, seen, Number(values.requests), `${values.wait} s later`, reads);
        console.log(`\n  create through REST: ${(await creates(t, Number(values.creates))).toFixed(2)} ms each`);
      } finally {
        await t.close();
      }
    }
  } finally {
    await pg.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
