import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const source = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      // apps in the repository (examples/blog, fixtures) import Vellum by its package name: its sources here
      { find: /^vellum$/, replacement: source('./index.ts') },
      { find: /^vellum\/testing$/, replacement: source('./testing.ts') },
      { find: /^vellum\/testing\/setup$/, replacement: source('./testing/setup.ts') },
      { find: /^vellum\/plugins\/([^/]+)$/, replacement: source('./plugins/$1/index.ts') },
      // graphql ships CommonJS (main) and ESM (module) builds; Node (and nexus, a CommonJS package)
      // load the first, Vite would pick the second: two copies, which graphql refuses to mix
      { find: /^graphql$/, replacement: 'graphql/index.js' },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // A cold embedded cluster (initdb + first start) takes a few seconds.
    hookTimeout: 120_000,
  },
});
