/**
 * The test kit's vitest globalSetup (`globalSetup: ['vellum/testing/setup']`): one PostgreSQL
 * server for the whole run, as Vellum's own suite has (starting PostgreSQL is the slow part):
 * DATABASE_URL when set, else a testcontainers container when Docker answers and testcontainers
 * is installed, else an embedded server in a temp folder, removed afterwards. Every
 * `createTestApp()` then makes a database of its own on it.
 */
import { startTestServer } from '../database/test-server.ts';
import { ADMIN_URL_KEY } from './admin-url.ts';

/** What a globalSetup receives (vitest's TestProject), as far as used here. */
export interface GlobalSetupContext {
  provide(key: string, value: unknown): void;
}

export default async function setup(project: GlobalSetupContext): Promise<() => Promise<void>> {
  const server = await startTestServer();
  project.provide(ADMIN_URL_KEY, server.adminUrl);
  return () => server.stop();
}
