/**
 * The reference Strapi 5 measured beside Vellum in the same run: a folder with start.sh (a fresh
 * PostgreSQL cluster on 5433 and Strapi on 1337), stop.sh and the tokens.json start.sh writes. The
 * bench only ever runs those scripts; nothing in Vellum's build or tests depends on Strapi.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../root.ts';
import type { Cleanup } from './cleanup.ts';

const run = promisify(execFile);

export interface StrapiServer {
  url: string;
  /** the full-access API token start.sh created (seeding and the mixed workload's writes) */
  token: string;
  /** Strapi's process, from start.sh's pids file (its CPU is sampled), when known */
  pid?: number;
  /** its database, for the CPU sampler */
  databaseUrl: string;
}

/** The default folder: $VELLUM_BENCH_STRAPI, else ../shared/reference-strapi beside the repository. */
export const defaultStrapiDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.VELLUM_BENCH_STRAPI || path.resolve(ROOT, '../shared/reference-strapi');

/** Whether `dir` holds a set-up reference Strapi (its dependencies installed). */
export const strapiInstalled = (dir: string): boolean => existsSync(path.join(dir, 'app/node_modules/.bin/strapi'));

/**
 * `STRAPI_LOG_LEVEL=warn DIR/start.sh` (no per-request log line while measuring), its full-access
 * token; stop.sh is registered with `cleanup` (so the end of the run, Ctrl-C and failures stop it).
 */
export async function startStrapi(dir: string, cleanup: Cleanup): Promise<StrapiServer> {
  // registered first: a start.sh that fails half-way may have left PostgreSQL running
  cleanup.add('stop the reference Strapi (stop.sh)', () => run(path.join(dir, 'stop.sh'), [], { cwd: dir }));
  const env = { ...process.env, STRAPI_LOG_LEVEL: 'warn' };
  await run(path.join(dir, 'start.sh'), [], { cwd: dir, env, maxBuffer: 1 << 22 }).catch(
    (err: Error & { stderr?: string }) => {
      throw new Error(`${dir}/start.sh failed: ${err.message}\n${err.stderr ?? ''}`, { cause: err });
    },
  );
  const tokens = JSON.parse(await readFile(path.join(dir, 'tokens.json'), 'utf8')) as {
    fullAccess?: { accessKey?: string };
  };
  const token = tokens.fullAccess?.accessKey;
  if (!token) throw new Error(`${dir}/tokens.json holds no fullAccess.accessKey`);
  const pids = await readFile(path.join(dir, 'pids'), 'utf8').catch(() => '');
  const pid = Number(/^strapi (\d+)$/m.exec(pids)?.[1]) || undefined;
  const port = process.env.STRAPI_PORT ?? '1337';
  const pgPort = process.env.PG_PORT ?? '5433';
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    pid,
    databaseUrl: `postgres://strapi:strapi@127.0.0.1:${pgPort}/strapi`,
  };
}
