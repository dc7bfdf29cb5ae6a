/**
 * SQL statements per request, per workload: the design promises a small fixed number whatever
 * the page size (DESIGN.md, "Query engine"), and it is the first thing to look at when a
 * workload is slow. Counted on a second, in-process instance of the same app on the same
 * database, whose every statement is observed (the measured server runs quietly in its child).
 */
import { pino } from 'pino';
import { createVellumApp } from '../../index.ts';

/** Statements one request of each path costs (after one unmeasured request), or null when it failed. */
export async function countStatements(appDir: string, databaseUrl: string, paths: string[]): Promise<Array<number | null>> {
  let count = 0;
  const app = await createVellumApp({
    appDir,
    databaseUrl,
    env: {},
    logger: pino({ level: 'silent' }),
    onQuery: () => void count++,
  });
  try {
    const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
    const out: Array<number | null> = [];
    for (const path of paths) {
      await fetch(url + path).then((r) => r.arrayBuffer()); // first use of a path may prepare things once
      count = 0;
      const res = await fetch(url + path);
      await res.arrayBuffer();
      out.push(res.ok ? count : null);
    }
    return out;
  } finally {
    await app.destroy();
  }
}
