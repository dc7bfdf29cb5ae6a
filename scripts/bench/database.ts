/** The bench's PostgreSQL: the same server the test suite uses, and a fresh database on it. */
import pg from 'pg';
import { startTestServer } from '../../database/test-server.ts';
import { createTestDatabase } from '../../database/test-database.ts';
import type { Cleanup } from './cleanup.ts';

export interface BenchDatabase {
  url: string;
  /** 'env' ($DATABASE_URL), 'container' (testcontainers) or 'embedded' (a temp cluster) */
  kind: string;
}

/**
 * $DATABASE_URL, else Docker, else an embedded cluster in a temp folder; dropped/stopped by
 * `cleanup`. The cluster's complaints are shown unless `quiet()` (after Ctrl-C it complains
 * about the signal it got too).
 */
export async function startBenchDatabase(cleanup: Cleanup, quiet: () => boolean = () => false): Promise<BenchDatabase> {
  const say = (msg: string): void => void (quiet() || process.stderr.write(`${msg}\n`));
  const server = await startTestServer({ debug() {}, info() {}, warn: say, error: say });
  cleanup.add('stop PostgreSQL', () => server.stop());
  const db = await createTestDatabase(server.adminUrl);
  cleanup.add(`drop database ${db.name}`, () => db.drop());
  return { url: db.url, kind: server.kind };
}

/**
 * Vacuum and refresh the planner's statistics after seeding. Autovacuum would do both at some
 * point, possibly in the middle of a workload, switching plans (seq scan + sort to an index
 * scan on `articles`, heap fetches to index-only counts) under the measurement; a database in
 * use has been vacuumed and analysed anyway.
 */
export async function analyzeDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
}
