/** The bench's PostgreSQL: the same server the test suite uses, and a fresh database on it. */
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
 * `cleanup`. Durable (fsync and synchronous commit on), as `npm start`'s server and the reference
 * Strapi's are: the test suite's settings would make every write cheaper than a user's. The
 * cluster's complaints are shown unless `quiet()` (after Ctrl-C it complains about the signal it
 * got too).
 */
export async function startBenchDatabase(cleanup: Cleanup, quiet: () => boolean = () => false): Promise<BenchDatabase> {
  const say = (msg: string): void => void (quiet() || process.stderr.write(`${msg}\n`));
  const server = await startTestServer({ debug() {}, info() {}, warn: say, error: say }, { durable: true });
  cleanup.add('stop PostgreSQL', () => server.stop());
  const db = await createTestDatabase(server.adminUrl);
  cleanup.add(`drop database ${db.name}`, () => db.drop());
  return { url: db.url, kind: server.kind };
}
