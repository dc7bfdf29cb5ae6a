/**
 * Seeding writes through the REST API, and writes need credentials: a full-access API token,
 * made with `vellum token create` on the bench's own app folder and database, as a user would.
 * Only the seeding sends it; the measured workloads stay public, as a frontend's requests are.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './server.ts';

const exec = promisify(execFile);

/** A new full-access key for the Vellum serving `appDir` on `databaseUrl` (its tables and salt exist once it has started). */
export async function createSeedToken(appDir: string, databaseUrl: string): Promise<string> {
  const args = ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'token', 'create', '--app', appDir, '--type', 'full-access', '--name', 'bench seeding'];
  // the server's own environment (a configured API_TOKEN_SALT included), so the key is valid there
  const { stdout } = await exec(process.execPath, args, { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`vellum token create failed: ${err.stderr?.trim() || err.message}`, { cause: err });
  });
  const key = stdout.trimEnd().split('\n').at(-1) ?? '';
  if (!/^[0-9a-f]{64,}$/.test(key)) throw new Error(`vellum token create printed no key:\n${stdout}`);
  return key;
}
