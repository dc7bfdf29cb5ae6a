import { randomInt } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  name: string;
  /** Terminates remaining connections and drops the database; safe to call twice. */
  drop(): Promise<void>;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh, empty database on the server behind `adminUrl` (which must allow CREATE DATABASE). */
export async function createTestDatabase(adminUrl: string): Promise<TestDatabase> {
  const name = `vellum_t_${Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdmin(adminUrl, async (client) => {
        // Leaked pool connections would otherwise make DROP DATABASE fail with "being accessed by other users".
        await client.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        const { rows } = await client.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v");
        const force = rows[0].v >= 130000 ? ' WITH (FORCE)' : '';
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)}${force}`);
      }),
  };
}

async function withAdmin(adminUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
