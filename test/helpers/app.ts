import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { createTestApp, type TestApp, type TestAppOptions } from '../../testing.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BLOG = path.join(ROOT, 'examples/blog');

/** A test app on this run's PostgreSQL server; the blog example unless another appDir is given. */
export function startApp(options: Partial<Omit<TestAppOptions, 'adminUrl'>> = {}): Promise<TestApp> {
  return createTestApp({ appDir: BLOG, ...options, adminUrl: inject('databaseAdminUrl') });
}
