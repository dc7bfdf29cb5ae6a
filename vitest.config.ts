import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql ships CommonJS (main) and ESM (module) builds; Node (and nexus, a CommonJS package)
    // load the first, Vite would pick the second: two copies, which graphql refuses to mix
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
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
