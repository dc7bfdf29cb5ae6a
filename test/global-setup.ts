import type { TestProject } from 'vitest/node';
import { startTestServer } from '../database/test-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL server; use `useTestDatabase()` rather than this directly. */
    databaseAdminUrl: string;
  }
}

// One server per run (starting PostgreSQL is the slow part); each test file gets its own database.
export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startTestServer();
  provide('databaseAdminUrl', server.adminUrl);
  return () => server.stop();
}
