import type { App } from '../../core/kernel/app.ts';
import type { RequestAuth } from '../../core/auth/types.ts';
import type { RouteMiddleware } from '../../core/http/server.ts';
import { forbidden, unauthorized } from '../../core/errors.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import type { Doc } from '../../core/documents/serialize.ts';
import type { JwtService } from './jwt.ts';
import type { RoleService } from './roles.ts';
import type { TokenService } from './tokens.ts';
import { USER_UID } from './schemas.ts';


export interface Authenticator {
  /**
   * Who a request is, from its Authorization header: the Public role without one, a user
   * for a valid JWT, a token for a valid API token key. A header that is neither → 401.
   */
  authenticate(header: string | undefined): Promise<RequestAuth>;
}

export function createAuthenticator(app: App, deps: { jwt: () => JwtService; roles: RoleService; tokens: TokenService }): Authenticator {
  const { roles, tokens } = deps;

  async function roleAuth(strategy: RequestAuth['strategy'], roleId: number | null, credentials: Doc | null): Promise<RequestAuth> {
    const actions = roleId === null ? new Set<string>() : await roles.actionsOf(roleId);
    return { strategy, credentials, allows: (action) => actions.has(action) };
  }

  /** the user a JWT names, with its role id (null when the token is invalid or the user is blocked or gone) */
  async function userOfJwt(token: string): Promise<Doc | null> {
    const payload = await deps.jwt().verify(token);
    if (!payload) return null;
    const user = await app.documents(USER_UID).findFirst({
      filters: resolveFilters(app.registry, USER_UID, { id: payload.id }),
      populate: { role: { fields: ['type'] } },
    });
    if (!user || user.blocked === true) return null;
    return user;
  }

  return {
    async authenticate(header) {
      if (header === undefined || header === '') {
        const pub = await roles.byTypeCached('public');
        return roleAuth('public', pub, null);
      }
      const m = /^Bearer\s+(\S{1,2048})\s*$/i.exec(header);
      if (!m) throw unauthorized();
      const credential = m[1];
      // a JWT has three dot-separated parts; an API token key is hex
      if (credential.includes('.')) {
        const user = await userOfJwt(credential);
        if (!user) throw unauthorized();
        const role = user.role as Doc | null;
        return roleAuth('users-permissions', role ? Number(role.id) : null, user);
      }
      const token = await tokens.verify(credential);
      if (!token) throw unauthorized();
      return { strategy: 'api-token', credentials: token, allows: (action) => tokens.allows(token, action) };
    },
  };
}

/**
 * Every route that names a permission action is private unless the caller's role or token
 * grants it. No credentials and a Public role without the action → 401; authenticated but
 * not allowed → 403. Routes marked `auth: false` are open to anyone.
 */
export function guardRoutes(auth: Authenticator): RouteMiddleware {
  return async (ctx, route, next) => {
    const action = route.config?.action;
    if (route.config?.auth === false || !action) return next();
    const who = await auth.authenticate(ctx.get('authorization') || undefined);
    ctx.state.auth = who;
    if (!who.allows(action)) throw who.strategy === 'public' ? unauthorized() : forbidden();
    return next();
  };
}
