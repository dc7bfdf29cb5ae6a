import type { App, HttpMethod } from '../../core/index.ts';
import type { UsersPermissionsApi } from './index.ts';
import { createRateLimiter, identifierOf } from './rate-limit.ts';
import { createEmailSender } from './email.ts';
import { createUserStore } from './users-store.ts';
import { createEmailConfirmation } from './auth-confirmation.ts';
import { createLocalAuth } from './auth-local.ts';
import { createPasswordAuth } from './auth-password.ts';
import { bodyOf, type AuthDeps, type Handler } from './auth-shared.ts';

/**
 * How a route is rate limited: per the body field it looks its user up by, per client
 * address alone (`null`: nothing in the body names an account), or not at all (`false`).
 */
type LimitedBy = 'identifier' | 'email' | null | false;

/** method, path under the prefix, action (`plugin::users-permissions.auth.<action>`), handler, rate limit */
type AuthRoute = [HttpMethod, string, string, Handler, LimitedBy];

/**
 * Strapi's local authentication routes under the REST prefix. The routes that take a
 * password or send an email are rate limited per identifier, route and client address; the
 * limiter belongs to this app instance.
 */
export function registerAuthRoutes(app: App, api: UsersPermissionsApi, prefix: string): Record<string, Handler> {
  const limiter = createRateLimiter(api.config.ratelimit);
  const deps: AuthDeps = {
    app,
    api,
    users: createUserStore(app, { roles: api.roles, defaultRole: api.config.defaultRole }),
    mail: createEmailSender(app, api.config.email),
    limiter,
    prefix,
  };
  const confirmation = createEmailConfirmation(deps);
  const local = createLocalAuth(deps, confirmation);
  const password = createPasswordAuth(deps);

  const routes: AuthRoute[] = [
    ['POST', '/auth/local', 'callback', local.login, 'identifier'],
    ['POST', '/auth/local/register', 'register', local.register, 'email'],
    ['GET', '/auth/email-confirmation', 'emailConfirmation', confirmation.confirm, false],
    ['POST', '/auth/send-email-confirmation', 'sendEmailConfirmation', confirmation.resend, 'email'],
    ['POST', '/auth/forgot-password', 'forgotPassword', password.forgot, 'email'],
    // the reset code and the current password are what is guessed: the address alone is limited
    ['POST', '/auth/reset-password', 'resetPassword', password.reset, null],
    ['POST', '/auth/change-password', 'changePassword', password.change, null],
  ];
  // counted before anything else, so a refused attempt costs the client as much as a good one
  const limit =
    (action: string, field: 'identifier' | 'email' | null, handler: Handler): Handler =>
    async (ctx) => {
      limiter.enforce(ctx, action, field === null ? 'noIdentifier' : identifierOf(bodyOf(ctx)[field]));
      await handler(ctx);
    };
  // by action, as routed: the GraphQL operations call the same handlers, so they share the limiter
  const handlers: Record<string, Handler> = {};
  for (const [method, path, action, handler, limitedBy] of routes) {
    handlers[action] = limitedBy === false ? handler : limit(action, limitedBy, handler);
    app.server.route({
      method,
      path: prefix + path,
      handler: handlers[action],
      config: { action: `plugin::users-permissions.auth.${action}` },
    });
  }
  // not routed: GraphQL's `emailConfirmation` (REST's answers with a redirect)
  handlers.emailConfirmationAnswering = confirmation.confirmAnswering;
  return handlers;
}
