/** Vellum under test: the blog example, copied to a temp folder, served by the CLI in a child process. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cleanup } from './cleanup.ts';
import { startChildServer, type ChildServer } from './child.ts';

/** The repository root (scripts/bench/..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A copy of examples/blog without its data: uploads land in the copy's public/ (never the
 * repo's), and the example's embedded cluster in .data/ is neither copied nor used.
 */
async function copyBlogApp(cleanup: Cleanup): Promise<string> {
  const source = path.join(ROOT, 'examples/blog');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'vellum-bench-app-'));
  cleanup.add(`remove ${dir}`, () => fs.rm(dir, { recursive: true, force: true }));
  const skipped = new Set(['.data', 'public'].map((name) => path.join(source, name)));
  await fs.cp(source, dir, { recursive: true, filter: (src) => !skipped.has(src) });
  return dir;
}

/**
 * Start Vellum on `databaseUrl`. LOG_LEVEL=warn: a JSON line per request would cost the
 * server more than some workloads do. With logs that quiet the "serving at <url>" line is
 * not printed, so the port is chosen beforehand and readiness read from /_health.
 */
export async function startVellum(databaseUrl: string, cleanup: Cleanup): Promise<ChildServer & { appDir: string }> {
  const appDir = await copyBlogApp(cleanup);
  const server = await startChildServer(
    {
      name: 'Vellum',
      args: [path.join(ROOT, 'scripts/cli.ts'), 'start', '--app', appDir],
      cwd: ROOT,
      env: { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
      healthPath: '/_health',
    },
    cleanup,
  );
  return { ...server, appDir };
}
