/**
 * Vellum as a user gets it: `npm pack`, `vellum new` run from the tarball, `npm install` of the
 * project from that tarball, then the project's own scripts: `npm test` (on this run's
 * PostgreSQL through DATABASE_URL, so no second server starts), its typecheck, `npm start` on
 * the project's embedded PostgreSQL, `npm run develop` restarting on a schema change, and a
 * JavaScript (CommonJS) project's `npm test` as an ordinary user, on an embedded server the test
 * kit starts itself (the path a developer without DATABASE_URL takes).
 */
import { readFile, writeFile, rename, mkdir, mkdtemp, chmod, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from '../helpers/app.ts';
import { baseEnv } from '../helpers/cli.ts';
import { run, serve, type Ran } from '../helpers/processes.ts';

const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];
const URL_LOGGED = /"url":"(http:\/\/[^"]+)"/;
const SCHEMA = 'src/api/article/content-types/article/schema.json';

let base: string;
let tarball: string;
let cli: string;
let app: string;

// what any command here runs with: no colours in output matched below, no npm update notice
const quiet = { NO_COLOR: '1', npm_config_update_notifier: 'false' };
const env = (more: Record<string, string> = {}): Record<string, string> => ({ ...baseEnv(), ...quiet, ...more });
const ok = (ran: Ran, what: string): void => expect(ran.code, `${what}:\n${ran.output}`).toBe(0);
const json = async (res: Response): Promise<{ data?: Record<string, unknown>; error?: { name: string } }> =>
  res.json() as Promise<{ data?: Record<string, unknown>; error?: { name: string } }>;

/** `vellum new` as the packed CLI runs it: from the extracted tarball, before anything is installed. */
async function scaffold(name: string, ...args: string[]): Promise<string> {
  ok(await run(process.execPath, [cli, 'new', name, '--vellum', tarball, ...args], { cwd: base, env: env() }), 'new');
  return path.join(base, name);
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'vellum-package-'));
  // as root, the embedded servers run as the postgres user, and one test runs as nobody
  await chmod(base, 0o755);
  ok(await run('npm', ['pack', '--pack-destination', base], { cwd: ROOT, env: env() }), 'npm pack');
  const packed = (await readdir(base)).find((f) => f.endsWith('.tgz'));
  tarball = path.join(base, packed!);
  await mkdir(path.join(base, 'extracted'));
  ok(await run('tar', ['xzf', tarball, '-C', path.join(base, 'extracted')], {}), 'tar');
  cli = path.join(base, 'extracted/package/bin/vellum.js');
  app = await scaffold('my-app');
  ok(await run('npm', ['install', ...NPM_FLAGS], { cwd: app, env: env() }), 'npm install');
}, 300_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe('the packed Vellum in a new project', () => {
  it('is lean: compiled code, declarations, the bin and the templates, no sources, tests or bench', async () => {
    const ran = await run('tar', ['tzf', tarball], {});
    const files = ran.output.split('\n').filter(Boolean);
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/dist/testing/setup.js');
    expect(files).toContain('package/dist/config/server.js');
    expect(files).toContain('package/bin/vellum.js');
    expect(files).toContain('package/templates/app/ts/tests/article.test.ts');
    const unwanted = files.filter(
      (f) => /^package\/(test|examples|scripts|core|database|plugins)\//.test(f) || /bench|fixtures/.test(f),
    );
    expect(unwanted).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.includes('/templates/'))).toEqual([]);
  });

  it("passes its own tests (the test kit, on this run's PostgreSQL) and its typecheck", async () => {
    const tested = await run('npm', ['test'], { cwd: app, env: env({ DATABASE_URL: inject('databaseAdminUrl') }) });
    ok(tested, 'npm test');
    expect(tested.output).toMatch(/Tests\s+2 passed/);
    ok(await run('npm', ['run', 'typecheck'], { cwd: app, env: env() }), 'npm run typecheck');
  }, 180_000);

  it('npm start serves the first content-type: anyone reads, writing needs a credential', async () => {
    const server = serve('npm', ['start'], { cwd: app, env: env({ PORT: '0', HOST: '127.0.0.1' }) });
    try {
      const url = await server.waitFor(URL_LOGGED, 1, 120_000);
      const list = await fetch(`${url}/api/articles`);
      expect(list.status).toBe(200);
      expect((await json(list)).data).toEqual([]);
      const write = await fetch(`${url}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { title: 'x' } }),
      });
      expect(write.status).toBe(401);
    } finally {
      await server.stop();
    }
  }, 180_000);

  it('npm run develop restarts on a schema change, and the new attribute is accepted', async () => {
    const develop = serve('npm', ['run', 'develop'], { cwd: app, env: env({ PORT: '0', HOST: '127.0.0.1' }) });
    try {
      const first = await develop.waitFor(URL_LOGGED, 1, 120_000);
      const bySubtitle = '/api/articles?filters[subtitle][$null]=true';
      expect((await fetch(first + bySubtitle)).status).toBe(400);
      // the project's own CLI, beside the running server (it attaches to its embedded cluster)
      const token = await run(
        'npm',
        ['run', '-s', 'vellum', '--', 'token', 'create', '--name', 'ci', '--type', 'full-access'],
        {
          cwd: app,
          env: env(),
        },
      );
      ok(token, 'vellum token create');
      const key = token.output.trimEnd().split('\n').at(-1);

      const schemaFile = path.join(app, SCHEMA);
      const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
      schema.attributes.subtitle = { type: 'string' };
      await writeFile(schemaFile, JSON.stringify(schema, null, 2));

      const second = await develop.waitFor(URL_LOGGED, 2, 120_000);
      expect(develop.output()).toContain(`${SCHEMA} changed, restarting`);
      const created = await fetch(`${second}/api/articles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ data: { title: 'Hello', subtitle: 'again' } }),
      });
      expect(created.status).toBe(201);
      expect((await json(created)).data).toMatchObject({ title: 'Hello', subtitle: 'again' });
      expect((await fetch(second + bySubtitle)).status).toBe(200);
    } finally {
      // as a terminal's Ctrl-C: npm, the supervisor and the app all get SIGINT
      await develop.stop('SIGINT');
    }
    // the app shut down gracefully twice: for the restart, and at the end
    expect(develop.output().match(/"msg":"shutting down"/g)).toHaveLength(2);
  }, 240_000);

  it('a JavaScript (CommonJS) project passes its tests and serves as an ordinary user', async () => {
    const js = await scaffold('my-js-app', '--js');
    expect(JSON.parse(await readFile(path.join(js, 'package.json'), 'utf8')).type).toBeUndefined();
    // the same dependencies: the installed tree moves over rather than being installed again
    await rename(path.join(app, 'node_modules'), path.join(js, 'node_modules'));
    const home = await mkdtemp(path.join(os.tmpdir(), 'vellum-home-'));
    try {
      // no DATABASE_URL: vellum/testing/setup starts an embedded server, as the user (not root)
      const userEnv = { PATH: process.env.PATH ?? '', HOME: home, ...quiet };
      let ran: Ran;
      if (process.getuid?.() === 0) {
        for (const dir of [js, home]) ok(await run('chown', ['-R', 'nobody:', dir], {}), 'chown');
        // runuser sets HOME to the user's own (none, for nobody): set again inside
        const command = ['-u', 'nobody', '--', 'env', `HOME=${home}`, 'npm', 'test'];
        ran = await run('runuser', command, { cwd: js, env: userEnv });
      } else {
        ran = await run('npm', ['test'], { cwd: js, env: userEnv });
      }
      ok(ran, 'npm test (JavaScript project)');
      expect(ran.output).toMatch(/Tests\s+2 passed/);
      // and the project serves as that user, on its own embedded PostgreSQL in .data/
      const start = ['env', `HOME=${home}`, 'PORT=0', 'HOST=127.0.0.1', 'npm', 'start'];
      const server =
        process.getuid?.() === 0
          ? serve('runuser', ['-u', 'nobody', '--', ...start], { cwd: js, env: userEnv })
          : serve('npm', ['start'], { cwd: js, env: { ...userEnv, PORT: '0', HOST: '127.0.0.1' } });
      try {
        const url = await server.waitFor(URL_LOGGED, 1, 120_000);
        const list = await fetch(`${url}/api/articles`);
        expect(list.status).toBe(200);
        expect((await json(list)).data).toEqual([]);
      } finally {
        await server.stop();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  }, 180_000);
});
