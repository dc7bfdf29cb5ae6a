import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/app.ts';
import { baseEnv, exited, startCli } from '../helpers/cli.ts';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A one-shot `vellum <args>` (e.g. `token create`), run to completion. */
function vellum(args: string[], env: Record<string, string>): Promise<Ran> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => {
    stdout += c;
  });
  child.stderr!.on('data', (c) => {
    stderr += c;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const KEY = /^[0-9a-f]{256}$/;

/** `vellum token create …`: succeeds and prints the key alone as the last line. */
async function createToken(env: Record<string, string>, ...args: string[]): Promise<string> {
  const ran = await vellum(['token', 'create', ...args], env);
  expect(ran.code, ran.stderr).toBe(0);
  const last = ran.stdout.trimEnd().split('\n').at(-1) ?? '';
  expect(last).toMatch(KEY);
  expect(ran.stdout).toBe(`${last}\n`); // logs go to stderr: `KEY=$(vellum token create …)` works
  return last;
}

const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
const postTag = (url: string, name: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${url}/api/tags`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ data: { name } }),
  });

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('vellum start and vellum token', () => {
  // one embedded cluster for the whole suite: every CLI run boots an app on it
  let env: Record<string, string>;
  let editorKey: string;
  beforeAll(async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vellum-cli-'));
    await chmod(dataDir, 0o755); // as root, the postgres user must be able to reach it
    dirs.push(dataDir);
    env = { VELLUM_DATA_DIR: dataDir };
  });

  it('serves the blog (embedded PG, `token create` key), stops on SIGINT, keeps data across restarts', async () => {
    // made before the server runs, on the same data dir: the salt is kept in the database
    editorKey = await createToken(env, '--type', 'full-access', '--name', 'editor', '--description', 'the suite');

    const first = await startCli(env);
    const list = await fetch(`${first.url}/api/articles`);
    expect(list.status).toBe(200);
    expect((await list.json()).meta.pagination.total).toBe(0);
    expect((await postTag(first.url, 'anonymous')).status).toBe(401);
    const created = await postTag(first.url, 'survives', bearer(editorKey));
    expect(created.status).toBe(201);
    // a request in flight when the signal arrives still gets its answer
    const inFlight = fetch(`${first.url}/api/tags`);
    await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGINT');
    expect((await inFlight).status).toBe(200);
    expect(await exited(first.child)).toBe(0);
    expect(first.output()).toContain('shutting down');

    const second = await startCli(env);
    const tags = await (await fetch(`${second.url}/api/tags`)).json();
    expect(tags.data.map((t: { name: string }) => t.name)).toEqual(['survives']);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('token create/list/revoke work while `start` uses the same data dir; the server sees them at once', async () => {
    const server = await startCli(env);
    try {
      // attaches to the running server's PostgreSQL rather than refusing (or stopping it)
      const readerKey = await createToken(env, '--type', 'read-only', '--name', 'reader', '--lifespan', '7');
      const read = await fetch(`${server.url}/api/tags`, { headers: bearer(readerKey) });
      expect(read.status).toBe(200);
      expect((await read.json()).data.map((t: { name: string }) => t.name)).toEqual(['survives']);
      expect((await postTag(server.url, 'by-reader', bearer(readerKey))).status).toBe(403);
      expect((await postTag(server.url, 'by-editor', bearer(editorKey))).status).toBe(201);

      const listed = await vellum(['token', 'list'], env);
      expect(listed.code, listed.stderr).toBe(0);
      const iso = '\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z';
      const lines = listed.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^\\d+\\teditor\\tfull-access\\tnever\\t${iso}$`));
      expect(lines[1]).toMatch(new RegExp(`^\\d+\\treader\\tread-only\\t${iso}\\t${iso}$`));

      const revoked = await vellum(['token', 'revoke', 'reader'], env);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.stdout).toMatch(/^revoked API token \d+ "reader"\n$/);
      expect((await fetch(`${server.url}/api/tags`, { headers: bearer(readerKey) })).status).toBe(401);
      expect((await fetch(`${server.url}/api/tags`, { headers: bearer(editorKey) })).status).toBe(200);

      const again = await vellum(['token', 'revoke', 'reader'], env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('No API token named reader');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await exited(server.child)).toBe(0);
  });

  it('token usage mistakes exit 2 with a message, before any database starts', async () => {
    const untouched = {
      VELLUM_DATA_DIR: path.join(path.dirname(env.VELLUM_DATA_DIR), `${path.basename(env.VELLUM_DATA_DIR)}-never`),
    };
    const cases: Array<[string[], RegExp]> = [
      [['create', '--type', 'full-access'], /create needs --name/],
      [['create', '--name', 'x', '--type', 'admin'], /--type must be one of read-only, full-access, custom/],
      [['create', '--name', 'x', '--type', 'custom'], /--type custom needs --actions/],
      [['create', '--name', 'x', '--type', 'read-only', '--lifespan', '10'], /--lifespan must be 7, 30, 90/],
      [['create', '--name', 'x', '--type', 'read-only', '--colour', 'red'], /Unknown option '--colour'/],
      [['revoke'], /revoke takes one token id or name/],
      [['rotate'], /unknown subcommand "rotate"/],
    ];
    const runs = await Promise.all(cases.map(([args]) => vellum(['token', ...args], untouched)));
    runs.forEach((ran, i) => {
      expect(ran.code, ran.stderr).toBe(2);
      expect(ran.stderr).toMatch(cases[i][1]);
      expect(ran.stderr).toContain('usage: vellum token');
      expect(ran.stdout).toBe('');
    });
    expect(existsSync(untouched.VELLUM_DATA_DIR)).toBe(false);
  });

  it('stops with a message naming the file and attribute when a schema is wrong', async () => {
    const { writeApp } = await import('../helpers/fixture-app.ts');
    const appDir = await writeApp({
      contentTypes: {
        bad: {
          kind: 'collectionType',
          collectionName: 'bads',
          info: { singularName: 'bad', pluralName: 'bads' },
          attributes: { x: { type: 'nope' } },
        },
      },
    });
    dirs.push(appDir);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'start', '--app', appDir],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let err = '';
    child.stderr!.on('data', (c) => {
      err += c;
    });
    expect(await exited(child)).toBe(1);
    expect(err).toContain('src/api/bad/content-types/bad/schema.json: attribute "x" has unknown type "nope"');
    expect(err).not.toContain('    at ');
  });
});
