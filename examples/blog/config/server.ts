export default ({ env }: { env: import('../../../core/config/env.ts').EnvFn }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
});
