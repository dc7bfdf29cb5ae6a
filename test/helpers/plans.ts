/**
 * The statements an app runs, with their bindings, and their plans: what the indexed-reads test
 * and scripts/bench-scale.ts look at to tell whether a read reaches its rows through an index.
 */
import type { Knex } from 'knex';

/** A statement as knex sent it to pg: `$n` placeholders and their values. */
export interface Statement {
  sql: string;
  bindings: Knex.Value[];
}

/**
 * Whether `sql` is a read of documents (core/documents/read.ts): the one statement that aggregates
 * the page, with `string_agg` into a REST answer's text, with `json_agg` for parsed reads.
 */
export const readsDocuments = (sql: string): boolean => /\b(string|json)_agg\(/.test(sql);

/** Records every statement `db` runs from now on into the returned list (clear it with `length = 0`). */
export function recordStatements(db: Knex): Statement[] {
  const seen: Statement[] = [];
  db.on('query', (q: { sql: string; bindings?: Knex.Value[] }) =>
    seen.push({ sql: q.sql, bindings: q.bindings ?? [] }),
  );
  return seen;
}

/** A plan node of EXPLAIN (FORMAT JSON), with the fields the checks read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Sort Key'?: string[];
  'Actual Rows'?: number;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

interface Queryable {
  query(sql: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** `statement`'s plan, run on `db` (EXPLAIN with `options`, FORMAT JSON always). */
export async function explain(db: Knex, statement: Statement, options = ''): Promise<PlanNode & { root: unknown }> {
  // on a pg connection of the pool: knex would read `$1` as text and `?` (jsonb operators) as its own placeholders
  const client = db.client as {
    acquireConnection(): Promise<Queryable>;
    releaseConnection(c: Queryable): Promise<void>;
  };
  const connection = await client.acquireConnection();
  let rows: Array<Record<string, unknown>>;
  try {
    ({ rows } = await connection.query(`EXPLAIN (FORMAT JSON${options ? `, ${options}` : ''}) ${statement.sql}`, [
      ...statement.bindings,
    ]));
  } finally {
    await client.releaseConnection(connection);
  }
  const root = (rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0];
  return Object.assign(root.Plan, { root });
}

/** Every node of `plan`, depth first. */
export function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}
