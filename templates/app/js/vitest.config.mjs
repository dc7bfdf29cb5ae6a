import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.js'],
    // one PostgreSQL for the run (DATABASE_URL, else Docker with testcontainers installed, else
    // embedded); every createTestApp() gets a database of its own on it
    globalSetup: ['vellum/testing/setup'],
    testTimeout: 30_000,
    // a first embedded cluster (initdb) takes a few seconds
    hookTimeout: 120_000,
  },
});
