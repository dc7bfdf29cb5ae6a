import type { App } from '../../core/kernel/app.ts';
import type { HttpMethod } from '../../core/http/server.ts';
import type { UsersPermissionsApi } from './index.ts';
import { createRateLimiter } from './rate-limit.ts';
import { createEmailSender } from './email.ts';
import { createUserStore } from './users-store.ts';
import { createEmailConfirmation } from './auth-confirmation.ts';
import { createLocalAuth } from './auth-local.ts';
import { createPasswordAuth } from './auth-password.ts';
import type { AuthDeps, Handler } from './auth-shared.ts';

/** method, path under the prefix, action (`plugin::users-permissions.auth.<action>`), handler, rate limited */
type AuthRoute = [HttpMethod, string, string, Handler, boolean];

/**
 * Strapi's local authentication routes under the REST prefix. The routes that take a
 * password or send an email are rate limited per identifier, path and client address; the
 * limiter belongs to this app instance.
 */
export function registerAuthRoutes(app: App, api: UsersPermissionsApi, prefix: string): void {
  const limiter = createRateLimiter(api.config.ratelimit);
  const deps: AuthDeps = {
    app,
    api,
    users: createUserStore(app, { roles: api.roles, defaultRole: api.config.defaultRole }),
    mail: createEmailSender(app, api.config.email),
    prefix,
  };
  const confirmation = createEmailConfirmation(deps);
  const local = createLocalAuth(deps, confirmation);
  const password = createPasswordAuth(deps);

  const routes: AuthRoute[] = [
    ['POST', '/auth/local', 'callback', local.login, true],
    ['POST', '/auth/local/register', 'register', local.register, true],
    ['GET', '/auth/email-confirmation', 'emailConfirmation', confirmation.confirm, false],
    ['POST', '/auth/send-email-confirmation', 'sendEmailConfirmation', confirmation.resend, true],
    ['POST', '/auth/forgot-password', 'forgotPassword', password.forgot, true],
    ['POST', '/auth/reset-password', 'resetPassword', password.reset, true],
    ['POST', '/auth/change-password', 'changePassword', password.change, true],
  ];
  for (const [method, path, action, handler, limited] of routes) {
    app.server.route({
      method,
      path: prefix + path,
      // counted before anything else, so a refused attempt costs the client as much as a good one
      handler: limited ? (ctx) => { limiter.enforce(ctx); return handler(ctx); } : handler,
      config: { action: `plugin::users-permissions.auth.${action}` },
    });
  }
}
