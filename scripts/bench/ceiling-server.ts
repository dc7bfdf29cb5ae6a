/**
 * The ceiling, run as its own process (like Vellum, so both are measured the same way): a
 * bare node:http server that answers CEILING_PATH (`GET /api/articles?populate=*&sort=title:asc`) with the
 * text of one SQL statement, and nothing else. No framework, no query parsing, no JSON in JavaScript.
 * Env: DATABASE_URL, PORT, HOST; DATABASE_POOL_MAX as Vellum's (default 10).
 */
import { createServer } from 'node:http';
import pg from 'pg';
import { ceilingSql } from './ceiling-sql.ts';
import { CEILING_PATH } from './ceiling.ts';

// as written, and as a client that encodes `*` sends it
const ROUTES = new Set([CEILING_PATH, CEILING_PATH.replace('*', '%2A')]);
const NOT_FOUND = '{"data":null,"error":{"status":404,"name":"NotFoundError","message":"Not Found","details":{}}}';

/** Serve until SIGTERM/SIGINT. */
function serveCeiling(env: NodeJS.ProcessEnv): void {
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: Number(env.DATABASE_POOL_MAX ?? 10) });
  // a named statement is parsed and planned once per connection, as a hand-tuned server would do
  const query = { name: 'ceiling-list-populate', text: ceilingSql(), rowMode: 'array' as const };
  const server = createServer((req, res) => {
    if (req.url === '/_health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else if (req.method !== 'GET' || !ROUTES.has(req.url ?? '')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(NOT_FOUND);
    } else {
      pool.query<[string]>(query).then(
        ({ rows }) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(rows[0][0]),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
      );
    }
  });
  server.listen(Number(env.PORT ?? 0), env.HOST ?? '127.0.0.1');
  const stop = (): void => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

serveCeiling(process.env);
