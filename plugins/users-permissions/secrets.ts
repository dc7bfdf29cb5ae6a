import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { configurationError } from '../../core/index.ts';

const TABLE = 'vellum_secrets';

/**
 * A secret from config or the environment; in development, one generated once and kept in
 * the database, so tokens survive restarts and the CLI (which shares the database) signs and
 * checks with the same value. Production refuses to start without it: a secret generated on
 * the fly would be unknown to every other instance.
 */
export async function resolveSecret(
  db: Knex,
  name: string,
  configured: string | undefined,
  production: boolean,
  envName: string,
): Promise<string> {
  if (configured) return configured;
  if (production)
    throw configurationError(
      `users-permissions: ${envName} must be set in production (or configure it in config/plugins)`,
    );
  await db.raw(`CREATE TABLE IF NOT EXISTS ${TABLE} (name text PRIMARY KEY, value text NOT NULL)`);
  await db.raw(`INSERT INTO ${TABLE} (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, [
    name,
    randomBytes(48).toString('base64url'),
  ]);
  const { rows } = await db.raw(`SELECT value FROM ${TABLE} WHERE name = ?`, [name]);
  return rows[0].value as string;
}
