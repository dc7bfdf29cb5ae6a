import type { EnvFn } from 'vellum';

export default ({ env }: { env: EnvFn }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  // RESPONSE_CACHE=false runs without the response cache (the bench's "cold" server)
  responseCache: { enabled: env.bool('RESPONSE_CACHE', true) },
});
