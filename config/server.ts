// Platform defaults for `config/server.ts`; an app's own file overrides them key by key.
export default ({ env }: { env: import('../core/config/env.ts').EnvFn }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  // koa-body limits; a larger body gets 413 PayloadTooLargeError. An answer given before a body is read
  // (401, 403, 413…) first reads and discards up to drainLimit of it (an upload route: up to its sizeLimit),
  // so a client still sending gets the answer; a longer body has its connection closed instead
  body: { jsonLimit: '2mb', formLimit: '2mb', textLimit: '2mb', drainLimit: '32mb' },
  // format: 'auto' writes readable lines at a terminal outside production, JSON lines otherwise
  logger: { level: env('LOG_LEVEL', 'info'), format: env('LOG_FORMAT', 'auto') },
  // the server's public address: links in emails start with it (required with email confirmation)
  url: env('PUBLIC_URL'),
  // behind reverse proxies: false, true (one proxy), a hop count, or Strapi's { koa, maxIpsCount };
  // the client's address is read that many entries from the right of X-Forwarded-For
  proxy: env.bool('IS_PROXIED', false),
  // how long a graceful shutdown waits for in-flight requests
  shutdownTimeoutMs: env.int('SHUTDOWN_TIMEOUT_MS', 10000),
  // repeated reads answered from memory while what they read is unchanged (DESIGN.md, "Response cache")
  responseCache: { enabled: env.bool('RESPONSE_CACHE', true) },
  // with users-permissions disabled, the app only starts when this says every route may be open to anyone
  openApi: env.bool('VELLUM_OPEN_API', false),
});
