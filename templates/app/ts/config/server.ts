import type { EnvFn } from 'vellum';

// Vellum's defaults cover the rest (body limits, proxy, logger level…); set a key here to change it.
export default ({ env }: { env: EnvFn }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
});
