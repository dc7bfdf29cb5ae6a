import { createHash } from 'node:crypto';

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
