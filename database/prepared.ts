import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Gives a statement's SQL text its prepared-statement name, or none once the budget is spent. */
export type StatementNamer = (sql: string) => string | undefined;

/**
 * Names for prepared statements, per app (one namer for all its pooled connections,
 * `prepareStatements`). A statement's SQL text depends only on the query's shape (values are bound
 * parameters), so a few names cover the traffic. The budget bounds what a stream of
 * differently-shaped queries can make every connection hold: past `limit` distinct shapes, new
 * ones run unnamed.
 */
export function createStatementNamer(limit = 200): StatementNamer {
  const known = new Set<string>();
  return (sql) => {
    const name = `vellum_${createHash('sha1').update(sql).digest('hex').slice(0, 32)}`;
    if (known.has(name)) return name;
    if (known.size >= limit) return undefined;
    known.add(name);
    return name;
  };
}

/**
 * Run `client`'s statements as named prepared statements, each parsed (and, once PostgreSQL keeps
 * its generic plan, planned) once per connection: every read (one statement per request, its SQL
 * depending only on the query's shape) and the document service's writes (a few fixed shapes per
 * content type: the row locked, updated, copied to other locales, the published copy replaced).
 * Named: a statement with parameters, or a read (SELECT/WITH) without any. Left as it is: a
 * statement that has a name of its own, and what has neither (BEGIN, COMMIT, DDL). Past the
 * namer's budget, new shapes run unnamed.
 */
export function prepareStatements(client: pg.Client, name: StatementNamer): void {
  const query = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => unknown;
  const named = (config: unknown, ...rest: unknown[]): unknown => {
    const {
      text,
      values,
      name: own,
    } = (typeof config === 'object' && config !== null ? config : {}) as {
      text?: unknown;
      values?: unknown;
      name?: unknown;
    };
    const nameable =
      !own &&
      typeof text === 'string' &&
      ((Array.isArray(values) && values.length > 0) || /^\s*(SELECT|WITH)\b/i.test(text));
    const as = nameable ? name(text) : undefined;
    return as ? query({ ...(config as object), name: as }, ...rest) : query(config, ...rest);
  };
  (client as unknown as { query: typeof named }).query = named;
}
