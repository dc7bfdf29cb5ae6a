import type { ConnectionOptions } from './connection.ts';

/** Where an app's data lives, as a person is told it (the start banner): never a password. */
export type DatabaseSummary =
  | {
      kind: 'embedded';
      /** the app's data folder (`database.embedded.dataDir`) */
      dataDir: string;
      /** the cluster's own folder: inside dataDir, or under /var/lib/vellum when PostgreSQL could not reach it */
      clusterDir: string;
    }
  | { kind: 'external'; host: string; port: number | null; database: string | null; user: string | null };

/** An external database's address from a URL or knex's connection object, the password left out. */
export function describeConnection(connection: ConnectionOptions | string): DatabaseSummary {
  const options = typeof connection === 'string' ? { connectionString: connection } : connection;
  const url = parseUrl(options.connectionString);
  // a URL's socket form (`postgresql:///db?host=/run/postgresql`) names its host in the query
  const urlHost = url ? url.hostname || url.searchParams.get('host') || null : null;
  const urlPort = url?.port ? Number(url.port) : null;
  const urlDatabase = url ? decodeURIComponent(url.pathname.replace(/^\//, '')) || null : null;
  const urlUser = url?.username ? decodeURIComponent(url.username) : null;
  return {
    kind: 'external',
    host: options.host ?? urlHost ?? 'localhost',
    port: options.port ?? urlPort,
    database: options.database ?? urlDatabase,
    user: options.user ?? urlUser,
  };
}

function parseUrl(text: string | undefined): URL | null {
  if (!text) return null;
  try {
    return new URL(text);
  } catch {
    // not a URL (a libpq key=value string, say): the other fields, or nothing, describe it
    return null;
  }
}
