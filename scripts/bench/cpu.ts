/**
 * Where a workload's CPU goes, per request: the server process, and the PostgreSQL backends
 * serving its database. A slow workload is either slow SQL (database ms/request, compare with
 * the ceiling's) or slow JavaScript (server ms/request). Linux only (/proc); elsewhere, or for
 * a server that is not our child, nothing is sampled.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import pg from 'pg';

export interface CpuCost {
  /** CPU milliseconds per request, in the server process and in PostgreSQL */
  serverMs: number;
  databaseMs: number;
}

export interface CpuSampler {
  start(): Promise<void>;
  /** the CPU used since `start`, divided by `requests` */
  stop(requests: number): Promise<CpuCost | null>;
  close(): Promise<void>;
}

const ticksPerSecond = (): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
};

/** utime + stime of a process, in ticks (0 once it is gone). */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // the command name (field 2) may contain spaces; count fields from the closing parenthesis
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.length > 12 ? Number(fields[11]) + Number(fields[12]) : 0;
}

/** Sample `serverPid` and the backends connected to `databaseUrl`'s database. */
export async function createCpuSampler(serverPid: number, databaseUrl: string): Promise<CpuSampler | null> {
  if (process.platform !== 'linux') return null;
  const hz = ticksPerSecond();
  const client = new pg.Client({ connectionString: databaseUrl });
  // a server stopped before the sampler is closed ends this connection: not an error worth a crash
  client.on('error', () => {});
  await client.connect();
  // the server's pool connections: backends of this database other than the sampler's own
  const backends = async (): Promise<number[]> =>
    (
      await client.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ' +
          "AND backend_type = 'client backend'",
      )
    ).rows.map((r) => r.pid);
  const snapshot = async (pids: number[]): Promise<Map<number, number>> =>
    new Map(await Promise.all(pids.map(async (p) => [p, await cpuTicks(p)] as [number, number])));
  let server = 0;
  let db = new Map<number, number>();
  return {
    async start() {
      server = await cpuTicks(serverPid);
      db = await snapshot(await backends());
    },
    async stop(requests) {
      const serverTicks = (await cpuTicks(serverPid)) - server;
      // a connection opened during the run started from zero
      const now = await snapshot([...new Set([...db.keys(), ...(await backends())])]);
      let dbTicks = 0;
      for (const [pid, ticks] of now) if (ticks > 0) dbTicks += ticks - (db.get(pid) ?? 0);
      if (requests === 0) return null;
      const ms = (ticks: number): number => ((ticks / hz) * 1000) / requests;
      return { serverMs: ms(serverTicks), databaseMs: ms(dbTicks) };
    },
    close: () => client.end(),
  };
}
