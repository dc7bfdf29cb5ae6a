import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    // A cold embedded cluster (initdb + first start) takes a few seconds.
    hookTimeout: 120_000,
  },
});
