import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import {
  createTestApp,
  type TestApp as KitApp,
  type TestAppOptions,
  type TestResponse as KitResponse,
} from '../../testing.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BLOG = path.join(ROOT, 'examples/blog');

/**
 * The test kit's app and response with `any` bodies, for this suite only: its tests read bodies
 * by asserting on them, as supertest users do. The kit itself answers `unknown` unless told.
 */
export type TestResponse<T = any> = KitResponse<T>;
export interface TestApp extends Omit<KitApp, 'request'> {
  request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse<T>>;
}

/**
 * A test app on this run's PostgreSQL server; the blog example unless another appDir is given,
 * starting empty: no demo content (the blog's first-start seed), unless a test asks for it; without
 * the response cache on, as an app runs by default (`env: { RESPONSE_CACHE: 'false' }` turns it off
 * for a test that counts the statements or connections a repeated read takes).
 */
export async function startApp(options: Partial<Omit<TestAppOptions, 'adminUrl'>> = {}): Promise<TestApp> {
  const env = { VELLUM_DEMO_CONTENT: 'false', ...options.env };
  return createTestApp({ appDir: BLOG, ...options, env, adminUrl: inject('databaseAdminUrl') });
}
