/** The figures as tables on stdout, the targets' verdicts, and what --json writes. */
import type { FirstAnswer, Measurement } from './load.ts';
import type { MixedMeasurement } from './mixed.ts';
import type { SeedResult } from './seed.ts';
import type { Targets } from './discover.ts';
import type { Workload } from './workloads.ts';
import {
  CEILING_FRACTION,
  FLAT_FRACTION,
  GRAPHQL_FRACTION,
  MIXED_FACTOR,
  SCALE_LIMIT,
  STRAPI_FACTOR,
  WARM_FACTOR,
} from './targets.ts';

/** One server's figures for one workload. */
export interface Side {
  first: FirstAnswer;
  measured: Measurement;
  /** SQL statements for one request (Vellum started here only) */
  statements?: number | null;
}

export interface WorkloadResult extends Workload {
  /** Vellum with RESPONSE_CACHE=false, Vellum as configured (cache on), the reference Strapi */
  cold?: Side;
  warm?: Side;
  strapi?: Side;
}

export interface CeilingResult {
  first: FirstAnswer;
  measured: Measurement;
  /** whether Vellum's list-populate answer equals the ceiling's */
  comparison: { equal: boolean; detail: string };
}

/** Everything measured at one dataset size. */
export interface SizeRun {
  articles: number;
  seed?: SeedResult;
  strapiSeed?: SeedResult;
  targets: Targets;
  workloads: WorkloadResult[];
  ceiling?: CeilingResult;
  mixed: { cold?: MixedMeasurement; warm?: MixedMeasurement; strapi?: MixedMeasurement };
  /** why Strapi was not measured, when it was not */
  noStrapi?: string;
}

export interface Check {
  name: string;
  pass: boolean;
  detail: string;
}

const fixed = (n: number | undefined, digits = 1): string =>
  n !== undefined && Number.isFinite(n) ? n.toFixed(digits) : '-';
/** rows answered, and the total when it is larger ("25 of 78"): how much a filter matches */
const rowsOf = (a: FirstAnswer): string =>
  a.rows === null ? '-' : a.total !== null && a.total > a.rows ? `${a.rows} of ${a.total}` : String(a.rows);
// a GraphQL answer is 200 even when it failed: its first answer's `error` says so
const ok = (s: Side | undefined): boolean =>
  !!s &&
  s.first.status >= 200 &&
  s.first.status < 300 &&
  !s.first.error &&
  s.measured.non2xx === 0 &&
  !s.measured.errors;
const mixedOk = (m: Measurement | undefined): m is Measurement => !!m && m.non2xx === 0 && m.errors === 0;
const rps = (s: Side | undefined): number | undefined => s?.measured.rps;

/** `vellum >= factor x strapi`, failing when either side failed. */
function factorCheck(name: string, factor: number, vellum?: Measurement, strapi?: Measurement, failed?: string): Check {
  if (failed || !vellum || !strapi) return { name, pass: false, detail: failed ?? 'not measured' };
  const ratio = vellum.rps / strapi.rps;
  return {
    name,
    pass: ratio >= factor,
    detail: `${fixed(ratio)}x (${fixed(vellum.rps)} vs Strapi ${fixed(strapi.rps)} req/s)`,
  };
}

/** `a >= fraction of b` on cold figures of two workloads (or the ceiling). */
function fractionCheck(name: string, fraction: number, a?: Side, b?: { measured: Measurement } | Side): Check {
  if (!a || !ok(a))
    return { name, pass: false, detail: a ? `answers ${a.first.status}: ${a.first.error ?? ''}` : 'missing' };
  if (!b || ('first' in b && !ok(b as Side))) return { name, pass: false, detail: 'nothing to compare with' };
  const f = a.measured.rps / b.measured.rps;
  return {
    name,
    pass: f >= fraction,
    detail: `${fixed(f * 100)}% (${fixed(a.measured.rps)} vs ${fixed(b.measured.rps)} req/s)`,
  };
}

/** The targets of one size: against Strapi when it was measured, and Vellum's own bounds. */
export function evaluate(run: SizeRun): Check[] {
  const checks: Check[] = [];
  const by = (name: string): WorkloadResult | undefined => run.workloads.find((w) => w.name === name);
  if (!run.noStrapi) {
    for (const w of run.workloads.filter((x) => x.rest))
      for (const [label, factor, side] of [
        ['cold', STRAPI_FACTOR, w.cold],
        ['warm', WARM_FACTOR, w.warm],
      ] as const) {
        const failed = !ok(side) ? `Vellum ${label} failed` : !ok(w.strapi) ? 'Strapi failed' : undefined;
        const name = `${w.name} ${label} >= ${factor}x Strapi`;
        checks.push(factorCheck(name, factor, side?.measured, w.strapi?.measured, failed));
      }
    const m = run.mixed;
    const failed = !mixedOk(m.warm)
      ? 'Vellum had non-2xx or errors'
      : !mixedOk(m.strapi)
        ? 'Strapi had non-2xx or errors'
        : undefined;
    checks.push(factorCheck(`mixed warm >= ${MIXED_FACTOR}x Strapi`, MIXED_FACTOR, m.warm, m.strapi, failed));
  }
  const lp = by('list-populate');
  if (run.ceiling && lp)
    checks.push(
      fractionCheck(
        `list-populate cold >= ${CEILING_FRACTION * 100}% of ceiling`,
        CEILING_FRACTION,
        lp.cold,
        run.ceiling,
      ),
    );
  const gql = by('graphql-list');
  if (gql)
    checks.push(
      fractionCheck(
        `graphql-list >= ${GRAPHQL_FRACTION * 100}% of deep-populate (cold)`,
        GRAPHQL_FRACTION,
        gql.cold,
        by('deep-populate')?.cold,
      ),
    );
  const flat = by('graphql-list-flat');
  if (flat && gql)
    checks.push(
      fractionCheck(
        `graphql-list-flat >= ${FLAT_FRACTION * 100}% of graphql-list (cold)`,
        FLAT_FRACTION,
        flat.cold,
        gql.cold,
      ),
    );
  return checks;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
}

const ratio = (a: number | undefined, b: number | undefined): string =>
  a !== undefined && b !== undefined && b > 0 ? `${fixed(a / b)}x` : '-';
const failures = (s: Side | undefined): string =>
  s ? String(s.measured.non2xx + s.measured.errors + (ok(s) ? 0 : s.first.error ? 1 : 0)) : '-';

/** One size as text: the workloads (cold, warm, Strapi), the mixed workload, failures, verdicts. */
export function formatRun(run: SizeRun, checks: Check[]): string {
  const strapi = !run.noStrapi;
  const header = [
    'workload',
    'rows',
    'cold req/s',
    'p50',
    'p99',
    'warm req/s',
    'p50',
    'p99',
    ...(strapi ? ['Strapi req/s', 'p50', 'cold/S', 'warm/S'] : []),
    'fail',
    'SQL/req',
    'node ms',
    'PG ms',
  ];
  const cpu = (m?: Measurement): string[] =>
    m?.cpu ? [fixed(m.cpu.serverMs, 2), fixed(m.cpu.databaseMs, 2)] : ['-', '-'];
  const rows = run.workloads.map((w) => [
    w.name,
    w.cold ? rowsOf(w.cold.first) : '-',
    fixed(rps(w.cold)),
    fixed(w.cold?.measured.p50, 0),
    fixed(w.cold?.measured.p99, 0),
    fixed(rps(w.warm)),
    fixed(w.warm?.measured.p50, 0),
    fixed(w.warm?.measured.p99, 0),
    ...(strapi
      ? [
          fixed(rps(w.strapi)),
          fixed(w.strapi?.measured.p50, 0),
          ratio(rps(w.cold), rps(w.strapi)),
          ratio(rps(w.warm), rps(w.strapi)),
        ]
      : []),
    [w.cold, w.warm, w.strapi].map(failures).join('/'),
    w.cold?.statements === undefined || w.cold.statements === null ? '-' : String(w.cold.statements),
    ...cpu(w.cold?.measured),
  ]);
  const m = run.mixed;
  const mixedRow = (label: string, x?: Measurement): string[] => [
    label,
    x ? `${x.requests}` : '-',
    fixed(x?.rps),
    fixed(x?.p50, 0),
    fixed(x?.p99, 0),
    x ? String(x.non2xx + x.errors) : '-',
    x ? JSON.stringify(x.statusCodes) : '-',
  ];
  const mixed = [
    ['mixed (90% reads / 200 URLs, 10% PUT)', 'requests', 'req/s', 'p50', 'p99', 'non-2xx+err', 'statuses'],
    mixedRow('Vellum cold (cache off)', m.cold),
    mixedRow('Vellum warm (cache on)', m.warm),
    ...(strapi
      ? [mixedRow('Strapi', m.strapi), ['warm / Strapi', '', ratio(m.warm?.rps, m.strapi?.rps), '', '', '', '']]
      : []),
  ];
  const out = [`## ${run.articles} articles`, '', table([header, ...rows])];
  if (run.noStrapi) out.push('', `Strapi not measured: ${run.noStrapi}`);
  if (run.ceiling) {
    const c = run.ceiling;
    out.push(
      '',
      `ceiling (1 SQL, ${rowsOf(c.first)} rows): ${fixed(c.measured.rps)} req/s, p50 ${fixed(c.measured.p50, 0)} ms; ` +
        `its list-populate answer vs Vellum's: ${c.comparison.equal ? 'equal' : 'DIFFERENT'}, ${c.comparison.detail}`,
    );
  }
  out.push('', table(mixed), '');
  for (const w of run.workloads)
    for (const [label, s] of [
      ['cold', w.cold],
      ['warm', w.warm],
      ['Strapi', w.strapi],
    ] as const) {
      if (!s || ok(s)) continue;
      out.push(
        `!!! ${w.name} (${label}) does not answer 2xx: first answer ${s.first.status}, ${s.measured.non2xx} non-2xx ` +
          `and ${s.measured.errors} errors under load (${JSON.stringify(s.measured.statusCodes)})`,
        `!!!   ${w.body === undefined ? 'GET' : 'POST'} ${w.path}`,
        ...(s.first.error?.split('\n') ?? []).map((line) => `!!!   ${line.trim().slice(0, 600)}`),
      );
    }
  for (const [label, x] of Object.entries(run.mixed) as Array<[string, MixedMeasurement | undefined]>)
    if (x?.firstFailure) out.push(`!!! mixed (${label}): ${x.non2xx} non-2xx, the first: ${x.firstFailure}`);
  out.push('targets:', ...formatChecks(checks));
  return out.join('\n');
}

export const formatChecks = (checks: Check[]): string[] => [
  ...checks.map((c) => `  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`),
  `  ${checks.filter((c) => c.pass).length}/${checks.length} targets met`,
];

/** Per workload, the slowdown from the smallest to the largest size (cold); sorted pages stay within SCALE_LIMIT. */
export function scaling(runs: SizeRun[]): { text: string; checks: Check[] } {
  const small = runs[0];
  const large = runs[runs.length - 1];
  const header = ['workload', ...runs.map((r) => `${r.articles} cold req/s`), 'slowdown', 'check'];
  const checks: Check[] = [];
  const rows = small.workloads.map((w) => {
    const a = rps(w.cold);
    const b = rps(large.workloads.find((x) => x.name === w.name)?.cold);
    const slowdown = a !== undefined && b !== undefined && b > 0 ? a / b : undefined;
    let verdict = '';
    if (w.page) {
      const pass = slowdown !== undefined && slowdown <= SCALE_LIMIT;
      verdict = pass ? 'PASS' : 'FAIL';
      checks.push({
        name: `${w.name} at ${large.articles} <= ${SCALE_LIMIT}x slower than at ${small.articles}`,
        pass,
        detail: `${fixed(slowdown, 2)}x`,
      });
    }
    return [
      w.name,
      ...runs.map((r) => fixed(rps(r.workloads.find((x) => x.name === w.name)?.cold))),
      slowdown === undefined ? '-' : `${fixed(slowdown, 2)}x`,
      verdict,
    ];
  });
  const text = [
    `## ${small.articles} -> ${large.articles} articles (cold): a sorted page of 25, total included, at most ` +
      `${SCALE_LIMIT}x slower`,
    '',
    table([header, ...rows]),
  ].join('\n');
  return { text, checks };
}
