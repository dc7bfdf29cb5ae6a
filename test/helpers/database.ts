import { inject } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../database/test-database.ts';

/** A fresh, empty database for the calling test file; the caller drops it (e.g. in afterAll). */
export async function useTestDatabase(): Promise<TestDatabase> {
  return createTestDatabase(inject('databaseAdminUrl'));
}
