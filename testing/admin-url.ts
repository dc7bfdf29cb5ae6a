/**
 * Which PostgreSQL server a test app makes its database on: the one the caller names, else
 * DATABASE_URL, else the one `vellum/testing/setup` started for the vitest run.
 */

/** The key `vellum/testing/setup` provides the server's URL under (vitest's provide/inject). */
export const ADMIN_URL_KEY = 'vellumDatabaseAdminUrl';

async function providedByVitest(): Promise<string | undefined> {
  try {
    // loaded on use: the test kit also serves other runners, with DATABASE_URL
    const { inject } = await import('vitest');
    const url = (inject as (key: string) => unknown)(ADMIN_URL_KEY);
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined; // not installed, or not inside a vitest run
  }
}

export async function testAdminUrl(given: string | undefined, env = process.env): Promise<string> {
  const url = given || env.DATABASE_URL || (await providedByVitest());
  if (url) return url;
  throw new Error(
    'createTestApp needs a PostgreSQL server: add `globalSetup: ["vellum/testing/setup"]` to the vitest ' +
      'config (it starts one), set DATABASE_URL, or pass `adminUrl`',
  );
}
