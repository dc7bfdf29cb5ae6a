/** Vellum under test: the blog example, copied to a temp folder, served by the CLI in a child process. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { copyApp } from '../../testing.ts';
import { ROOT } from '../root.ts';
import type { Cleanup } from './cleanup.ts';
import { startChildServer, type ChildServer } from './child.ts';

/**
 * Start Vellum on `databaseUrl`, on a copy of examples/blog without its data: uploads land in
 * the copy's public/ (never the repo's), and the example's embedded cluster in .data/ is
 * neither copied nor used. LOG_LEVEL=warn: a JSON line per request would cost the server more
 * than some workloads do. With logs that quiet the "serving at <url>" line is not printed, so
 * the port is chosen beforehand and readiness read from /_health.
 */
export async function startVellum(
  databaseUrl: string,
  cleanup: Cleanup,
  env: Record<string, string> = {},
): Promise<ChildServer & { appDir: string }> {
  const appDir = await copyApp(path.join(ROOT, 'examples/blog'));
  cleanup.add(`remove ${appDir}`, () => fs.rm(appDir, { recursive: true, force: true }));
  const server = await startChildServer(
    {
      name: 'Vellum',
      args: [path.join(ROOT, 'scripts/cli.ts'), 'start', '--app', appDir],
      cwd: ROOT,
      // the bench seeds its own dataset: no demo content beside it
      env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', VELLUM_DEMO_CONTENT: 'false', ...env },
      healthPath: '/_health',
    },
    cleanup,
  );
  return { ...server, appDir };
}
