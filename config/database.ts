// Platform defaults for `config/database.ts`. Without DATABASE_URL or an app-level
// `connection`, Vellum starts an embedded PostgreSQL whose data lives in `<app>/.data`.
export default ({ env }: { env: import('../core/config/env.ts').EnvFn }) => ({
  connection: env('DATABASE_URL')
    ? { client: 'postgres', connection: { connectionString: env('DATABASE_URL') } }
    : undefined,
  pool: { min: env.int('DATABASE_POOL_MIN', 0), max: env.int('DATABASE_POOL_MAX', 10) },
  // milliseconds one SQL statement may run before PostgreSQL cancels it (the request answers 503); 0 for none
  statementTimeout: env.int('DATABASE_STATEMENT_TIMEOUT', 10000),
  // restarts: attempts in a row at restarting an embedded server that died, before the app gives up (exits 1)
  embedded: {
    dataDir: env('VELLUM_DATA_DIR', '.data'),
    port: env.int('EMBEDDED_PG_PORT', 0),
    restarts: env.int('EMBEDDED_PG_RESTARTS', 5),
  },
});
