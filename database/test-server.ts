import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgresLog } from './embedded.ts';

export interface TestServer {
  /** A superuser URL; tests create their own databases through it (see test-database.ts). */
  adminUrl: string;
  kind: 'env' | 'container' | 'embedded';
  stop(): Promise<void>;
}

const DOCKER_PROBE_MS = 1500;
// Throwaway data: durability only costs time (unless the caller measures writes: `durable`).
const FAST_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

const defaultLog: EmbeddedPostgresLog = {
  debug: (msg) => process.env.VELLUM_TEST_PG_DEBUG && console.debug(msg),
  info() {},
  warn: (msg) => console.warn(msg),
  error: (msg) => console.error(msg),
};

export interface TestServerOptions {
  /**
   * Keep PostgreSQL's durability (fsync, synchronous commit, full-page writes), as `npm start`'s
   * embedded server does: for a benchmark, whose writes are compared with a server that keeps it.
   */
  durable?: boolean;
}

/** One PostgreSQL server for a whole test run: $DATABASE_URL, else Docker, else embedded. */
export async function startTestServer(
  log: EmbeddedPostgresLog = defaultLog,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const flags = options.durable ? [] : FAST_FLAGS;
  const envUrl = process.env.DATABASE_URL;
  if (envUrl) return { adminUrl: envUrl, kind: 'env', stop: async () => {} };

  if (await dockerAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:16-alpine').withCommand(['postgres', ...flags]).start();
    let stopping: Promise<unknown> | undefined;
    return {
      adminUrl: container.getConnectionUri(),
      kind: 'container',
      stop: async () => {
        await (stopping ??= container.stop());
      },
    };
  }

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vellum-test-pg-'));
  // mkdtemp makes it 0700; as root the cluster runs as "postgres", which must be able to traverse it
  // (otherwise startEmbeddedPostgres would park the cluster under /var/lib/vellum).
  await fs.chmod(dataDir, 0o711);
  try {
    const pg = await startEmbeddedPostgres({ dataDir, database: 'postgres', postgresFlags: flags, log });
    let stopping: Promise<void> | undefined;
    return {
      adminUrl: pg.url,
      kind: 'embedded',
      stop: () =>
        (stopping ??= (async () => {
          await pg.stop();
          await fs.rm(dataDir, { recursive: true, force: true });
          // Root with an untraversable TMPDIR parks the cluster under /var/lib/vellum; don't leave it there.
          if (!pg.clusterDir.startsWith(dataDir + path.sep))
            await fs.rm(path.dirname(pg.clusterDir), { recursive: true, force: true });
        })()),
    };
  } catch (err) {
    await fs.rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

// testcontainers' own runtime detection (DOCKER_HOST, ~/.testcontainers.properties, sockets…),
// bounded so a machine without an engine pays well under 2 s for asking.
async function dockerAnswers(): Promise<boolean> {
  let getClient: typeof import('testcontainers').getContainerRuntimeClient;
  try {
    ({ getContainerRuntimeClient: getClient } = await import('testcontainers'));
  } catch {
    return false;
  }
  let timer: NodeJS.Timeout | undefined;
  const probe = getClient().then(
    () => true,
    () => false,
  );
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), DOCKER_PROBE_MS);
  });
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
