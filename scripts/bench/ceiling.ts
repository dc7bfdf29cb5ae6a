/** Start the ceiling server (ceiling-server.ts) in a child process on a Vellum database. */
import path from 'node:path';
import { ROOT } from '../root.ts';
import type { Cleanup } from './cleanup.ts';
import { startChildServer, type ChildServer } from './child.ts';

/** The path the ceiling answers, the same request as the `list-populate` workload (sorted as a frontend sorts). */
export const CEILING_PATH = '/api/articles?populate=*&sort=title:asc';

export function startCeiling(databaseUrl: string, cleanup: Cleanup): Promise<ChildServer> {
  return startChildServer(
    {
      name: 'ceiling',
      args: [path.join(ROOT, 'scripts/bench/ceiling-server.ts')],
      cwd: ROOT,
      env: { DATABASE_URL: databaseUrl },
      healthPath: '/_health',
    },
    cleanup,
  );
}
