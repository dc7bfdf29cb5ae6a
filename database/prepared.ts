import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Gives a statement's SQL text its prepared-statement name, or none once the budget is spent. */
export type StatementNamer = (sql: string) => string | undefined;

/**
 * Names for prepared statements, per app. A read's SQL text depends only on the query's
 * shape (every value is a bound parameter), so a few names cover the traffic, and a named
 * statement is parsed and analysed once per connection instead of on every request; after a
 * few runs PostgreSQL may also keep a generic plan. The budget bounds what a stream of
 * differently-shaped queries can make every connection hold: past `limit` distinct shapes,
 * new ones run unnamed.
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
 * Run `client`'s parameterized statements that have no name as named prepared statements: the
 * document service's writes (a row locked, updated, copied to other locales, the published copy
 * replaced) are a few fixed shapes per content type, each parsed and planned on every run before.
 * A statement without parameters (BEGIN, COMMIT, DDL) or with a name of its own is left as it is,
 * and past the namer's budget new shapes run unnamed.
 */
export function prepareStatements(client: pg.Client, name: StatementNamer): void {
  const query = client.query.bind(client) as (config: unknown, ...rest: unknown[]) => unknown;
  const named = (config: unknown, ...rest: unknown[]): unknown => {
    if (config !== null && typeof config === 'object' && !('name' in config && (config as { name?: unknown }).name)) {
      const { text, values } = config as { text?: unknown; values?: unknown };
      const as = typeof text === 'string' && Array.isArray(values) && values.length > 0 ? name(text) : undefined;
      if (as) return query({ ...config, name: as }, ...rest);
    }
    return query(config, ...rest);
  };
  (client as unknown as { query: typeof named }).query = named;
}
