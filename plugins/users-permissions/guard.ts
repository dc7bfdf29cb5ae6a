import {
  type App,
  type Doc,
  forbidden,
  type RequestAuth,
  resolveFilters,
  type RouteMiddleware,
  unauthorized,
} from '../../core/index.ts';
import type { JwtService } from './jwt.ts';
import type { RoleService } from './roles.ts';
import type { TokenService } from './tokens.ts';
import { ROLE_UID, USER_UID } from './schemas.ts';

export interface Authenticator {
  /**
   * Who a request is, from its Authorization header: the Public role without one, a user
   * for a valid JWT, a token for a valid API token key. A header that is neither → 401.
   */
  authenticate(header: string | undefined): Promise<RequestAuth>;
}

/**
 * A token's permission set as the response cache keys it: its id, type and grants, never its key.
 * An edit of its grants makes another key; a revoked or expired token is refused before any lookup.
 */
function tokenScope(token: Doc): string {
  const grants = Array.isArray(token.permissions) ? [...(token.permissions as string[])].sort().join(',') : '';
  return `token:${token.id}:${token.type}:${grants}`;
}

export function createAuthenticator(
  app: App,
  deps: { jwt: () => JwtService; roles: RoleService; tokens: TokenService },
): Authenticator {
  const { roles, tokens } = deps;

  async function roleAuth(
    strategy: RequestAuth['strategy'],
    roleId: number | null,
    credentials: Doc | null,
  ): Promise<RequestAuth> {
    const actions = roleId === null ? new Set<string>() : await roles.actionsOf(roleId);
    // a role's grants change with a write to roles: its answers depend on them
    const cacheScope = { key: `role:${roleId}`, deps: [ROLE_UID] };
    return { strategy, credentials, allows: (action) => actions.has(action), cacheScope };
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
      return {
        strategy: 'api-token',
        credentials: token,
        allows: (action) => tokens.allows(token, action),
        cacheScope: { key: tokenScope(token), deps: [] },
      };
    },
  };
}

/** Who an `auth: false` route's request is when its credential names nobody: no grant at all. */
const NOBODY: RequestAuth = Object.freeze({ strategy: 'public', credentials: null, allows: () => false });

/**
 * Every request is authenticated, whatever route it hits, so `ctx.state.auth` is always there
 * for the handler (one GraphQL route authorizes per field with it): no credentials → the Public
 * role, a credential that is not valid → 401. A route that names a permission action is private
 * unless the caller's role or token grants it: a Public role without it → 401, authenticated but
 * not allowed → 403. Routes marked `auth: false` (Strapi's "no authentication") are open to
 * anyone and never refused: a valid credential is still seen, any other reads as `NOBODY`
 * (so `/_health` answers whatever a probe sends, and whether or not the database does).
 */
export function guardRoutes(auth: Authenticator): RouteMiddleware {
  return async (ctx, route, next) => {
    const header = ctx.get('authorization') || undefined;
    if (route.config?.auth === false) {
      ctx.state.auth = await auth.authenticate(header).catch(() => NOBODY);
      return next();
    }
    const who = await auth.authenticate(header);
    ctx.state.auth = who;
    const action = route.config?.action;
    if (action && !who.allows(action)) throw who.strategy === 'public' ? unauthorized() : forbidden();
    return next();
  };
}
