/** The figures as a table on stdout, the targets' verdicts, and the JSON written by --json. */
import type { FirstAnswer, Measurement } from './load.ts';
import type { Workload } from './workloads.ts';
import { CEILING_FRACTION, FLAT_FRACTION, GRAPHQL_FRACTION, STRAPI_FACTOR } from './targets.ts';

export interface WorkloadResult extends Workload {
  first: FirstAnswer;
  measured: Measurement;
  /** SQL statements for one request (default mode only) */
  statements?: number | null;
}

export interface CeilingResult {
  first: FirstAnswer;
  measured: Measurement;
  /** whether Vellum's list-populate answer equals the ceiling's */
  comparison: { equal: boolean; detail: string };
}

export interface Check {
  name: string;
  /** the workload a per-workload check is about */
  workload?: string;
  pass: boolean;
  detail: string;
}

/** rows answered, and the total when it is larger ("25 of 78"): how much a filter matches */
const rowsOf = (a: FirstAnswer): string =>
  a.rows === null ? '-' : a.total !== null && a.total > a.rows ? `${a.rows} of ${a.total}` : String(a.rows);
// a GraphQL answer is 200 even when it failed: its first answer's `error` says so
const ok = (r: WorkloadResult): boolean =>
  r.first.status >= 200 && r.first.status < 300 && !r.first.error && r.measured.non2xx === 0 && r.measured.errors === 0;
const fixed = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** graphql-list's own target: a fraction of REST deep-populate in the same run (issue 13). */
function graphqlCheck(r: WorkloadResult, results: WorkloadResult[]): Check {
  const name = `graphql-list >= ${GRAPHQL_FRACTION * 100}% of deep-populate`;
  const deep = results.find((x) => x.name === 'deep-populate');
  if (!ok(r)) return { name, workload: r.name, pass: false, detail: `answers ${r.first.status}: ${r.first.error}` };
  if (!deep || !ok(deep)) return { name, workload: r.name, pass: false, detail: 'no deep-populate figure to compare' };
  const fraction = r.measured.rps / deep.measured.rps;
  return {
    name,
    workload: r.name,
    pass: fraction >= GRAPHQL_FRACTION,
    detail:
      `${fixed(fraction * 100)}% (${fixed(r.measured.rps)} vs ${fixed(deep.measured.rps)} req/s; ` +
      `${fixed(r.measured.rps / r.strapi)}x Strapi's ${r.strapi})`,
  };
}

/** graphql-list-flat's target: within 10% of the entity shape's graphql-list in the same run (issue 15). */
function flatCheck(r: WorkloadResult, results: WorkloadResult[]): Check {
  const name = `graphql-list-flat >= ${FLAT_FRACTION * 100}% of graphql-list`;
  const entity = results.find((x) => x.name === 'graphql-list');
  if (!ok(r)) return { name, workload: r.name, pass: false, detail: `answers ${r.first.status}: ${r.first.error}` };
  if (!entity || !ok(entity)) return { name, workload: r.name, pass: false, detail: 'no graphql-list figure' };
  const fraction = r.measured.rps / entity.measured.rps;
  return {
    name,
    workload: r.name,
    pass: fraction >= FLAT_FRACTION,
    detail: `${fixed(fraction * 100)}% (${fixed(r.measured.rps)} vs ${fixed(entity.measured.rps)} req/s)`,
  };
}

/**
 * Every target: 10× Strapi per REST workload (a failing workload fails it), graphql-list vs
 * deep-populate, list-populate vs the ceiling.
 */
export function evaluate(results: WorkloadResult[], ceiling?: CeilingResult): Check[] {
  const checks: Check[] = results.map((r) => {
    if (r.name === 'graphql-list') return graphqlCheck(r, results);
    if (r.name === 'graphql-list-flat') return flatCheck(r, results);
    const target = r.strapi * STRAPI_FACTOR;
    const name = `${r.name} >= ${STRAPI_FACTOR}x Strapi`;
    if (!ok(r))
      return { name, workload: r.name, pass: false, detail: `answers ${r.first.status}, ${r.measured.non2xx} non-2xx` };
    return {
      name,
      workload: r.name,
      pass: r.measured.rps >= target,
      detail: `${fixed(r.measured.rps)} req/s vs ${target}`,
    };
  });
  const lp = results.find((r) => r.name === 'list-populate');
  if (ceiling && lp) {
    const fraction = lp.measured.rps / ceiling.measured.rps;
    checks.push({
      name: `list-populate >= ${CEILING_FRACTION * 100}% of ceiling`,
      pass: ok(lp) && fraction >= CEILING_FRACTION,
      detail: `${fixed(fraction * 100)}% (${fixed(lp.measured.rps)} of ${fixed(ceiling.measured.rps)} req/s)`,
    });
  }
  return checks;
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
    .join('\n');
}

/** The report as text: the table, loud warnings for failing workloads, the verdicts. */
export function formatReport(results: WorkloadResult[], ceiling: CeilingResult | undefined, checks: Check[]): string {
  const header = [
    'workload',
    'status',
    'rows',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'SQL/req',
    'node ms/req',
    'PG ms/req',
    'of ceiling',
    'Strapi',
    '10x',
    'target',
  ];
  const cpu = (m: Measurement): string[] =>
    m.cpu ? [fixed(m.cpu.serverMs, 2), fixed(m.cpu.databaseMs, 2)] : ['-', '-'];
  const byName = new Map(checks.filter((c) => c.workload).map((c) => [c.workload, c]));
  const rows = results.map((r) => [
    r.name,
    String(r.first.status),
    rowsOf(r.first),
    fixed(r.measured.rps),
    fixed(r.measured.p50, 0),
    fixed(r.measured.p99, 0),
    String(r.measured.non2xx + r.measured.errors),
    r.statements === undefined || r.statements === null ? '-' : String(r.statements),
    ...cpu(r.measured),
    ceiling ? `${fixed((r.measured.rps / ceiling.measured.rps) * 100)}%` : '-',
    String(r.strapi),
    r.name === 'graphql-list'
      ? `${GRAPHQL_FRACTION * 100}% deep`
      : r.name === 'graphql-list-flat'
        ? `${FLAT_FRACTION * 100}% gql`
        : String(r.strapi * STRAPI_FACTOR),
    byName.get(r.name)?.pass ? 'PASS' : 'FAIL',
  ]);
  if (ceiling) {
    const m = ceiling.measured;
    rows.push([
      'ceiling (1 SQL)',
      String(ceiling.first.status),
      rowsOf(ceiling.first),
      fixed(m.rps),
      fixed(m.p50, 0),
      fixed(m.p99, 0),
      String(m.non2xx + m.errors),
      '1',
      ...cpu(m),
      '100.0%',
      '-',
      '-',
      '',
    ]);
  }
  const out = [table([header, ...rows]), ''];
  for (const r of results.filter((x) => !ok(x))) {
    out.push(
      `!!! ${r.name} does not answer 2xx: first answer ${r.first.status}, ` +
        `${r.measured.non2xx} non-2xx and ${r.measured.errors} errors under load ` +
        `(${JSON.stringify(r.measured.statusCodes)})`,
    );
    out.push(`!!!   ${r.body === undefined ? 'GET' : 'POST'} ${r.path}`);
    for (const line of r.first.error?.split('\n') ?? []) out.push(`!!!   ${line.trim().slice(0, 600)}`);
  }
  if (ceiling)
    out.push(
      `ceiling vs Vellum, list-populate answer: ${ceiling.comparison.equal ? 'equal' : 'DIFFERENT'}, ` +
        ceiling.comparison.detail,
    );
  out.push('', 'targets:');
  for (const c of checks) out.push(`  ${c.pass ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  const failed = checks.filter((c) => !c.pass).length;
  out.push(`  ${checks.length - failed}/${checks.length} targets met`);
  return out.join('\n');
}
