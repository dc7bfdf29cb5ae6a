import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../database/test-database.ts';
import { ROOT } from '../helpers/app.ts';
import { baseEnv, exited } from '../helpers/cli.ts';
import { writeApp } from '../helpers/fixture-app.ts';

/**
 * What `vellum start` prints: readable lines and a banner for a person at a terminal, JSON lines
 * (the banner one of them) otherwise, and what an empty project should do next.
 */
const CLI = [process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/cli.ts')];
const READY = /"url":"(http:\/\/[^"]+)"|Vellum is serving \S+ at (http:\/\/[\d.:]+)/;
const TOKEN = 'npm run vellum -- token create --type full-access --name dev';

const cleanup: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const undo of cleanup) await undo();
});

/** A new database on the run's server; the URL holds a password when the server has one. */
async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase(inject('databaseAdminUrl'));
  cleanup.push(() => db.drop());
  return db;
}

interface Running {
  url: string;
  /** stdout and stderr as they came (one stream through a terminal) */
  output(): string;
  /** SIGTERM, then the exit code */
  stop(): Promise<number | null>;
}

/**
 * `vellum start …` on a free port, resolved once it listens. `terminal`: run under `script`,
 * so the CLI's stdout is a real terminal (a pty) as at a person's prompt.
 */
async function start(env: Record<string, string>, args: string[] = [], terminal = false): Promise<Running> {
  const command = [...CLI, 'start', ...args];
  const [file, argv] = terminal
    ? ['script', ['-qefc', command.map((a) => `'${a}'`).join(' '), '/dev/null']]
    : [command[0], command.slice(1)];
  const child: ChildProcess = spawn(file, argv, {
    cwd: ROOT,
    env: { ...baseEnv(), PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group: a signal reaches the CLI under `script` too
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`vellum start did not listen in time:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const m = READY.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1] ?? m[2]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`vellum start exited with ${code}:\n${out}`));
    });
  });
  const stop = async () => {
    process.kill(-child.pid!, 'SIGTERM');
    return exited(child);
  };
  // `script`, signalled with the CLI, says so on its own line
  const output = () => out.replace(/^Session terminated.*$/m, '');
  cleanup.push(() => (child.exitCode === null ? stop() : Promise.resolve()));
  return { url, output, stop };
}

const lines = (text: string): string[] => text.split(/\r?\n/).filter((l) => l.trim() !== '');
const isJson = (line: string): boolean => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};
const banner = (output: string) =>
  lines(output)
    .map((l) => JSON.parse(l))
    .find((l) => l.endpoints !== undefined);
const password = (url: string): string => decodeURIComponent(new URL(url).password);

describe('vellum start output', () => {
  it('without a terminal: JSON lines only, the banner one of them, naming the database, not its password', async () => {
    const db = await database();
    const server = await start({ DATABASE_URL: db.url });
    const endpoints = {
      'REST API': `${server.url}/api`,
      'GraphQL API': `${server.url}/graphql`,
      'Media library': `${server.url}/api/upload/files`,
    };
    // every address it gives answers
    expect((await fetch(`${endpoints['REST API']}/articles`)).status).toBe(200);
    expect((await fetch(endpoints['Media library'])).status).toBe(200);
    expect((await fetch(`${endpoints['GraphQL API']}?query={__typename}`)).status).toBe(200);
    expect((await fetch(`${server.url}/_health`)).status).toBe(200);
    expect(await server.stop()).toBe(0);

    const output = server.output();
    expect(lines(output).filter((l) => !isJson(l))).toEqual([]);
    const { hostname, port, username, pathname } = new URL(db.url);
    expect(banner(output)).toMatchObject({
      msg: `Vellum is serving examples/blog at ${server.url}`,
      url: server.url,
      endpoints: { ...endpoints, Health: `${server.url}/_health` },
      database: { kind: 'external', host: hostname, port: Number(port), database: pathname.slice(1), user: username },
      tokenCommand: TOKEN,
      // the blog's schemas without a document (no demo content in tests): how to write the first one
      next: [
        'Create your first entry:',
        `KEY=$(${TOKEN.replace('npm run', 'npm run -s')})`,
        `curl -X POST ${server.url}/api/articles -H "authorization: Bearer $KEY" ` +
          `-H 'content-type: application/json' -d '{"data":{"title":"Hello"}}'`,
      ],
    });
    if (password(db.url)) expect(output).not.toContain(password(db.url));
  });

  it('LOG_FORMAT=pretty: readable lines, the banner as text, a request as one short line', async () => {
    const db = await database();
    const server = await start({ DATABASE_URL: db.url, LOG_FORMAT: 'pretty' });
    expect((await fetch(`${server.url}/_health`)).status).toBe(200);
    expect(await server.stop()).toBe(0);

    const output = server.output();
    expect(lines(output).filter(isJson)).toEqual([]);
    const { hostname, port, username, pathname } = new URL(db.url);
    const text = lines(output);
    expect(text).toContain(`Vellum is serving examples/blog at ${server.url}`);
    // names padded to the longest one (the GraphQL playground's), addresses in one column
    const row = (name: string, value: string) =>
      new RegExp(`^  ${name} +${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const rows = [
      row('REST API', `${server.url}/api`),
      row('GraphQL API', `${server.url}/graphql`),
      row('GraphQL playground', `${server.url}/graphql`),
      row('Health', `${server.url}/_health`),
      row('Database', `PostgreSQL ${pathname.slice(1)} on ${hostname}:${port} as ${username}`),
    ];
    for (const r of rows)
      expect(
        text.some((l) => r.test(l)),
        String(r),
      ).toBe(true);
    const columns = text.filter((l) => rows.some((r) => r.test(l))).map((l) => l.search(/ (http|PostgreSQL)/));
    expect(new Set(columns).size).toBe(1);
    expect(text.some((l) => row('API token', TOKEN).test(l))).toBe(true);
    expect(text).toContain('  Create your first entry:');
    expect(output).toMatch(/^\[[\d:.]+\] INFO: GET \/_health 200 [\d.]+ms$/m);
    expect(output).toMatch(/^\[[\d:.]+\] INFO: shutting down \{"reason":"SIGTERM"\}$/m);
    if (password(db.url)) expect(output).not.toContain(password(db.url));
  });

  it('at a terminal: readable lines, unless NODE_ENV=production', async () => {
    const db = await database();
    const dev = await start({ DATABASE_URL: db.url }, [], true);
    expect(await dev.stop()).toBe(0);
    const devLines = lines(dev.output());
    expect(devLines.filter(isJson)).toEqual([]);
    expect(devLines.some((l) => l.includes('Vellum is serving examples/blog at'))).toBe(true);
    expect(devLines.some((l) => /^\[[\d:.]+\] .*INFO.*: .*blog example ready/.test(l))).toBe(true);

    const secrets = { JWT_SECRET: 'a-production-secret', API_TOKEN_SALT: 'a-production-salt' };
    const prod = await start({ DATABASE_URL: db.url, NODE_ENV: 'production', ...secrets }, [], true);
    expect(await prod.stop()).toBe(0);
    const prodLines = lines(prod.output());
    expect(prodLines.filter((l) => !isJson(l))).toEqual([]);
    expect(banner(prod.output()).url).toBe(prod.url);
  });

  it('a LOG_FORMAT it does not know stops the start, naming the file and key', async () => {
    const run = await promisify(execFile)(CLI[0], [...CLI.slice(1), 'start'], {
      cwd: ROOT,
      env: { ...baseEnv(), LOG_FORMAT: 'loud', VELLUM_DATA_DIR: '/nonexistent/never-created' },
    }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(run?.code).toBe(1);
    expect(run?.stderr).toContain(
      `config/server.ts (Vellum's defaults): logger.format: expected one of "auto", "pretty", "json", got "loud"`,
    );
  });

  it('an app without content types says where to add one', async () => {
    const appDir = await writeApp({});
    cleanup.push(() => rm(appDir, { recursive: true, force: true }));
    const server = await start({ DATABASE_URL: (await database()).url }, ['--app', appDir]);
    expect(await server.stop()).toBe(0);
    expect(banner(server.output())).toMatchObject({
      tokenCommand: `${TOKEN} --app ${appDir}`,
      next: ['No content types yet: add src/api/<name>/content-types/<name>/schema.json'],
    });
  });

  it('an app with no entry yet says how to create one; the commands work as printed; then says nothing', async () => {
    const note = {
      kind: 'collectionType',
      collectionName: 'notes',
      info: { singularName: 'note', pluralName: 'notes' },
      attributes: { body: { type: 'text' }, title: { type: 'string', required: true } },
    };
    const appDir = await writeApp({ contentTypes: { note } });
    cleanup.push(() => rm(appDir, { recursive: true, force: true }));
    const env = { DATABASE_URL: (await database()).url };
    const first = await start(env, ['--app', appDir]);
    const next: string[] = banner(first.output()).next;
    expect(next[0]).toBe('Create your first entry:');
    expect(next[2]).toContain(`/api/notes`);
    expect(next[2]).toContain(`'{"data":{"title":"Hello"}}'`);
    // pasted into a shell at the repository's root, as a person would
    const shell = await promisify(execFile)(
      'bash',
      ['-c', `${next[1]} && ${next[2]} -s -o /dev/null -w '%{http_code}'`],
      {
        cwd: ROOT,
        env: { ...baseEnv(), ...env },
      },
    );
    expect(shell.stdout).toBe('201');
    expect(await first.stop()).toBe(0);

    const second = await start(env, ['--app', appDir]);
    expect(await second.stop()).toBe(0);
    expect(banner(second.output()).next).toBeNull();
  });
});
