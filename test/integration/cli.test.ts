import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/app.ts';

interface Running { child: ChildProcess; url: string; output: () => string }

/** `vellum start` as a user runs it (through tsx), on a free port; resolves once it listens. */
async function startCli(env: Record<string, string>, args: string[] = []): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'start', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c) => { out += c; });
  child.stderr!.on('data', (c) => { out += c; });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vellum start did not listen in time:\n${out}`)), 60_000);
    const check = (): void => {
      const m = /"url":"(http:\/\/[^"]+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`vellum start exited with ${code}:\n${out}`)); });
  });
  return { child, url, output: () => out };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('vellum start', () => {
  it('serves the blog on an embedded PostgreSQL, stops on SIGINT, and keeps the data across restarts', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vellum-cli-'));
    await chmod(dataDir, 0o755); // as root, the postgres user must be able to reach it
    dirs.push(dataDir);
    const env = { VELLUM_DATA_DIR: dataDir };

    const first = await startCli(env);
    const list = await fetch(`${first.url}/api/articles`);
    expect(list.status).toBe(200);
    expect((await list.json()).meta.pagination.total).toBe(0);
    const created = await fetch(`${first.url}/api/tags`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'survives' } }),
    });
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

  it('stops with a message naming the file and attribute when a schema is wrong', async () => {
    const { writeApp } = await import('../helpers/fixture-app.ts');
    const appDir = await writeApp({
      contentTypes: { bad: { kind: 'collectionType', collectionName: 'bads', info: { singularName: 'bad', pluralName: 'bads' }, attributes: { x: { type: 'nope' } } } },
    });
    dirs.push(appDir);
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), 'start', '--app', appDir], {
      cwd: ROOT, env: { PATH: process.env.PATH ?? '', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (c) => { err += c; });
    expect(await exited(child)).toBe(1);
    expect(err).toContain('src/api/bad/content-types/bad/schema.json: attribute "x" has unknown type "nope"');
    expect(err).not.toContain('    at ');
  });
});
