import {
  type App,
  applicationError,
  authorizeQuery,
  checkQueryLimits,
  type Doc,
  type HttpMethod,
  noteQueryRead,
  notFound,
  type PaginationConfig,
  parseRestQuery,
  type Query,
  type QueryConfig,
  type RequestContext,
  resolveFilters,
  type RestApiConfig,
  unauthorized,
  validationError,
} from '../../core/index.ts';
import type { Knex } from 'knex';
import type { UsersPermissionsApi } from './index.ts';
import { bodyOf } from './auth-shared.ts';
import { createUserStore, takenIdentifier, type Documents, type UserStore, type UserView } from './users-store.ts';
import { checkNewUser, userData } from './users-input.ts';
import { USER_UID } from './schemas.ts';

type Handler = (ctx: RequestContext) => Promise<void>;
export type UserAction = 'me' | 'find' | 'count' | 'findOne' | 'create' | 'update' | 'destroy';

const ID = /^\d{1,15}$/;

/** The numeric id in the path; anything else names no user. */
function idOf(ctx: RequestContext): number {
  if (!ID.test(ctx.params.id)) throw notFound();
  return Number(ctx.params.id);
}

/**
 * The users API of Strapi's users-permissions: bare objects and arrays (no `data` wrapper),
 * users addressed by numeric id, never a password or token in an answer (the document service leaves them out).
 */
export function registerUserRoutes(
  app: App,
  api: UsersPermissionsApi,
  { prefix, pagination: rest, limits }: RestApiConfig,
): Record<UserAction, Handler> {
  const users = createUserStore(app, { roles: api.roles, defaultRole: api.config.defaultRole });
  const { maxLimit } = rest;
  // Strapi lists every user when no pagination is asked for; here that is capped at the REST maxLimit
  const pagination: PaginationConfig = {
    defaultLimit: maxLimit ?? Number.MAX_SAFE_INTEGER,
    maxLimit,
    withCount: false,
  };
  const controllers = createUserControllers(app, users, { pagination, limits });

  // /me and /count before /:id, which would take them for ids
  const routes: Array<[HttpMethod, string, UserAction]> = [
    ['GET', '/users/me', 'me'],
    ['GET', '/users/count', 'count'],
    ['GET', '/users', 'find'],
    ['GET', '/users/:id', 'findOne'],
    ['POST', '/users', 'create'],
    ['PUT', '/users/:id', 'update'],
    ['DELETE', '/users/:id', 'destroy'],
  ];
  for (const [method, path, action] of routes) {
    app.server.route({
      method,
      path: prefix + path,
      handler: controllers[action],
      // lists and single users answer by the caller's permissions, not by who it is (/me is not cached)
      config: { action: `plugin::users-permissions.user.${action}`, cache: action === 'find' || action === 'findOne' },
    });
  }
  // by action, as routed: GraphQL's user mutations call the same handlers
  return controllers;
}

function createUserControllers(app: App, users: UserStore, queries: QueryConfig): Record<UserAction, Handler> {
  // relations the caller may not `find` (the role, for most) are not populated, nor filtered or sorted by
  const query = (ctx: RequestContext): Query =>
    authorizeQuery(
      app.registry,
      USER_UID,
      parseRestQuery(app.registry, USER_UID, ctx.state.query, queries),
      ctx.state.auth,
    );
  /** a cacheable read's query, what it depends on noted for the response cache */
  const readQuery = (ctx: RequestContext): Query => {
    const q = query(ctx);
    noteQueryRead(ctx.state, app.registry, USER_UID, q);
    return q;
  };
  const view = (ctx: RequestContext, q = query(ctx)): UserView => ({ populate: q.populate, fields: q.fields });
  // Strapi answers a created or updated user with its role, whatever the query asks, unless the
  // caller may not read roles (then, as any populate it may not read, it is left out)
  const withRole = (ctx: RequestContext): UserView => ({
    populate: authorizeQuery(app.registry, USER_UID, { populate: { role: {} } }, ctx.state.auth).populate,
  });

  /**
   * Write a user whose username or email must stay free: the identifiers are locked, checked
   * and written in one transaction, and a race lost on the unique index gets the same answer.
   */
  async function claiming(
    who: { email?: unknown; username?: unknown },
    exceptId: number | undefined,
    write: (documents: Documents, trx: Knex.Transaction) => Promise<Doc | null>,
  ): Promise<Doc | null> {
    const email = typeof who.email === 'string' ? who.email : undefined;
    const username = typeof who.username === 'string' ? who.username : undefined;
    try {
      return await app.documents.transaction(async (documents, trx) => {
        await users.lockIdentifiers(
          trx,
          [email, username].filter((v): v is string => v !== undefined),
        );
        const taken = await users.conflicts(documents, { email, username }, exceptId);
        if (taken.username) throw applicationError('Username already taken');
        if (taken.email) throw applicationError('Email already taken');
        return write(documents, trx);
      });
    } catch (err) {
      const taken = takenIdentifier(err);
      const message = taken === 'username' ? 'Username already taken' : 'Email already taken';
      if (taken) throw applicationError(message, {}, { cause: err });
      throw err;
    }
  }

  return {
    async me(ctx) {
      const auth = ctx.state.auth;
      // an API token or the Public role has no "me"
      if (auth?.strategy !== 'users-permissions' || !auth.credentials) throw unauthorized('Unauthorized');
      const user = await users.byId(Number(auth.credentials.id), view(ctx));
      if (!user) throw unauthorized('Unauthorized');
      ctx.body = user;
    },
    async find(ctx) {
      ctx.body = await app.documents(USER_UID).findMany(readQuery(ctx));
    },
    async count(ctx) {
      const filters = resolveFilters(app.registry, USER_UID, ctx.state.query.filters);
      checkQueryLimits({ filters }, queries.limits);
      authorizeQuery(app.registry, USER_UID, { filters }, ctx.state.auth);
      ctx.body = await app.documents(USER_UID).count({ filters });
    },
    async findOne(ctx) {
      const user = await users.byId(idOf(ctx), view(ctx, readQuery(ctx)));
      if (!user) throw notFound();
      ctx.body = user;
    },
    async create(ctx) {
      checkNewUser(bodyOf(ctx));
      const data = await userData(app, ctx.request.body);
      data.provider = 'local';
      // Strapi's `if (!role)`: a role of 0 or '' passes its check and means the default role
      if (data.role === 0 || data.role === '') data.role = String((await users.defaultRole()).documentId);
      const v = withRole(ctx);
      ctx.body = await claiming(data, undefined, (documents) => documents(USER_UID).create({ data, ...v }));
      ctx.status = 201;
    },
    async update(ctx) {
      const id = idOf(ctx);
      const data = await userData(app, ctx.request.body);
      if (Object.hasOwn(data, 'password')) {
        // clearing it would lock a local user out for good
        if (typeof data.password !== 'string' || data.password === '') throw validationError('password.notNull');
      }
      const v = withRole(ctx);
      const user = await claiming(data, id, async (documents) => {
        const existing = await users.byId(id, {}, documents);
        if (!existing) return null;
        return documents(USER_UID).update({ documentId: String(existing.documentId), data, ...v });
      });
      if (!user) throw notFound('User not found');
      ctx.body = user;
    },
    async destroy(ctx) {
      const id = idOf(ctx);
      const v = view(ctx);
      const user = await app.documents.transaction(async (documents) => {
        const found = await users.byId(id, v, documents);
        if (found) await documents(USER_UID).delete({ documentId: String(found.documentId) });
        return found;
      });
      if (!user) throw notFound();
      ctx.body = user;
    },
  };
}
