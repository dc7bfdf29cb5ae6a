import { definePlugin, restApiConfig, WRITE_ACTIONS } from '../../core/index.ts';
import { usersPermissionsConfigSchema, withEnvSecrets, type UsersPermissionsConfig } from './config.ts';
import { apiTokenContentType, loadUserContentType, roleContentType, ROLE_UID } from './schemas.ts';
import { resolveSecret } from './secrets.ts';
import { createJwtService, type JwtService } from './jwt.ts';
import { createRoleService, type RoleService } from './roles.ts';
import { createTokenService, type TokenService } from './tokens.ts';
import { createAuthenticator, guardRoutes, type Authenticator } from './guard.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import type { Handler } from './auth-shared.ts';
import { registerUserRoutes } from './users-routes.ts';
import { registerRoleRoutes } from './roles-routes.ts';

export interface UsersPermissionsApi {
  config: UsersPermissionsConfig;
  roles: RoleService;
  tokens: TokenService;
  auth: Authenticator;
  /** available once the app has started (the secret may live in the database) */
  jwt(): JwtService;
  /** the /auth routes' handlers by action (`callback`, `register`, …), rate limits included */
  authHandlers: Record<string, Handler>;
  /** the /users routes' handlers by action (`create`, `update`, `destroy`, …) */
  userHandlers: Record<string, Handler>;
  /** the roles API's handlers by action (`role.createRole`, …) */
  roleHandlers: Record<string, Handler>;
  /** resolve the secrets (they may live in the database); bootstrap calls it */
  initialize(): Promise<void>;
}

/**
 * users-permissions: users (`plugin::users-permissions.user`), roles with their granted
 * actions, users' JWTs, API tokens, and the guard that makes every route private unless a
 * role or token grants its action.
 */
export const usersPermissionsPlugin = definePlugin({
  name: 'users-permissions',
  authenticates: true,
  async register(app): Promise<UsersPermissionsApi> {
    const config = withEnvSecrets(app.pluginConfig('users-permissions', usersPermissionsConfigSchema), app.env);
    app.registry.addContentType(await loadUserContentType(app.appDir));
    app.registry.addContentType(roleContentType());
    app.registry.addContentType(apiTokenContentType());

    let jwt: JwtService | undefined;
    let salt: string | undefined;
    const roles = createRoleService(app);
    const tokens = createTokenService(app, () => {
      if (!salt) throw new Error('API tokens are not available before the app has started');
      return salt;
    });
    const api: UsersPermissionsApi = {
      config,
      roles,
      tokens,
      auth: null as unknown as Authenticator,
      authHandlers: {},
      userHandlers: {},
      roleHandlers: {},
      jwt: () => {
        if (!jwt) throw new Error('JWTs are not available before the app has started');
        return jwt;
      },
      async initialize() {
        const production = app.env.NODE_ENV === 'production';
        const secret = await resolveSecret(app.db, 'jwt_secret', config.jwtSecret, production, 'JWT_SECRET');
        salt = await resolveSecret(app.db, 'api_token_salt', config.apiTokenSalt, production, 'API_TOKEN_SALT');
        jwt = createJwtService(secret, config.jwt.expiresIn);
      },
    };
    api.auth = createAuthenticator(app, { jwt: api.jwt, roles, tokens });

    // A role written in this process takes effect on the next request: the cached grants are
    // dropped once the write commits (dropped earlier, a read in between could cache the old rows;
    // dropped on a rollback, nothing changed) and before the write is answered.
    app.documents.use(async (ctx, next) => {
      const result = await next();
      if (ctx.uid === ROLE_UID && WRITE_ACTIONS.has(ctx.action)) await ctx.afterCommit(() => roles.invalidate());
      return result;
    });
    // and written by another instance: its bump (a NOTIFY) arrives before any read may see it
    app.generations.subscribe((key) => {
      if (key === ROLE_UID) roles.invalidate();
    });
    app.server.useRoute(guardRoutes(api.auth));
    const rest = restApiConfig(app.config);
    api.authHandlers = registerAuthRoutes(app, api, rest.prefix);
    api.userHandlers = registerUserRoutes(app, api, rest);
    api.roleHandlers = registerRoleRoutes(app, api, rest.prefix);
    return api;
  },
  async bootstrap(_app, api) {
    await api.initialize();
    await api.roles.applyConfig(api.config.roles);
  },
});
