/**
 * An app without a plugin that authenticates requests (users-permissions disabled) would serve
 * every route, writes included, to anyone. It only starts that way when the app says so
 * (`server.openApi: true`, or `VELLUM_OPEN_API=true` with the platform's config/server.ts); then
 * every route's requests carry an auth state that allows everything, so the code that checks
 * auth (`authorizeQuery`, GraphQL's per-field checks) runs the same way in both setups.
 */
import { configurationError } from '../errors.ts';
import type { RouteMiddleware } from '../http/server.ts';
import type { RequestAuth } from './types.ts';

/** What a request of an open API may do: everything. */
export const OPEN_ACCESS: RequestAuth = Object.freeze({
  strategy: 'open',
  credentials: null,
  allows: () => true,
  cacheScope: { key: 'open', deps: [] },
});

/** Sets the open auth state on every route's requests. */
export const openAccess: RouteMiddleware = async (ctx, _route, next) => {
  ctx.state.auth = OPEN_ACCESS;
  await next();
};

/**
 * Whether the app runs as an open API: no enabled plugin authenticates requests and the app
 * opted in. Without a plugin that authenticates and without the opt-in, a ConfigurationError
 * that says how to opt in (or to enable users-permissions).
 */
export function isOpenApi(
  plugins: ReadonlyArray<{ name: string; authenticates?: boolean }>,
  openApi: unknown,
): boolean {
  if (plugins.some((p) => p.authenticates === true)) return false;
  if (openApi === true) return true;
  throw configurationError(
    'No plugin authenticates requests (users-permissions is disabled in config/plugins): every route, writes ' +
      'included, would be public. To serve an open API on purpose, set `openApi: true` in config/server.ts (or ' +
      'VELLUM_OPEN_API=true in the environment); otherwise enable users-permissions.',
  );
}
