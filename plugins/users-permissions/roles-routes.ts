import {
  type App,
  type AppError,
  applicationError,
  type Doc,
  type DocumentApi,
  notFound,
  type RequestContext,
  resolveFilters,
  uniqueViolationOf,
  validationError,
  restApiConfig,
} from '../../core/index.ts';
import type { UsersPermissionsApi } from './index.ts';
import { toPermissionsTree } from './roles.ts';
import { parseRoleBody, unknownActions } from './roles-input.ts';
import { ROLE_UID, USER_UID } from './schemas.ts';

const UP = 'plugin::users-permissions';
/** Roles every app relies on: the guard uses the first, new users get the second. */
const BUILT_IN = new Set(['public', 'authenticated']);
const ID = /^[1-9][0-9]{0,14}$/;

const grantsOf = (role: Doc): string[] =>
  Array.isArray(role.permissions) ? role.permissions.filter((a): a is string => typeof a === 'string') : [];

/** The role's columns as Strapi's roles API shows them (never its raw grant list). */
const shown = (role: Doc): Doc => ({
  id: role.id,
  documentId: role.documentId,
  name: role.name,
  description: role.description,
  type: role.type,
  createdAt: role.createdAt,
  updatedAt: role.updatedAt,
  publishedAt: role.publishedAt,
});

/**
 * Strapi's roles API (`/users-permissions/roles`, `/users-permissions/permissions`). Grants are
 * shown and written as Strapi's nested permissions tree; the actions that exist are the
 * routes' actions, read when asked (routes are only complete once every plugin has booted).
 */
export function registerRoleRoutes(
  app: App,
  _api: UsersPermissionsApi,
  prefix: string,
): Record<string, (ctx: RequestContext) => Promise<void>> {
  const base = `${prefix}/users-permissions`;
  // a list is bounded like every other list (Strapi's takes no pagination and lists them all)
  const { maxLimit } = restApiConfig(app.config).pagination;
  const knownActions = (): Set<string> => {
    const out = new Set<string>();
    for (const r of app.server.routes()) if (r.config?.action) out.add(r.config.action);
    return out;
  };

  /** The role the path names, with its grant list (private: a raw read). */
  async function roleById(documents: (uid: string) => DocumentApi, id: string): Promise<Doc> {
    const filters = ID.test(id) ? resolveFilters(app.registry, ROLE_UID, { id: Number(id) }) : null;
    const role = filters ? await documents(ROLE_UID).findFirst({ filters, raw: true }) : null;
    if (!role) throw notFound('Role not found');
    return role;
  }

  function checkActions(actions: string[], allowed: Set<string>): void {
    const unknown = unknownActions(actions, allowed);
    if (unknown.length === 0) return;
    // a tree can be large: the message names a few, details all of them
    const named =
      unknown.length > 10 ? `${unknown.slice(0, 10).join(', ')} and ${unknown.length - 10} more` : unknown.join(', ');
    throw validationError(`Unknown permission actions: ${named}`, { actions: unknown });
  }

  // by action (`role.createRole`, …), as routed: GraphQL's role mutations call the same handlers
  const handlers: Record<string, (ctx: RequestContext) => Promise<void>> = {};
  const route = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    action: string,
    handler: (ctx: RequestContext) => Promise<void>,
  ): void => {
    app.server.route({ method, path: base + path, handler, config: { action: `${UP}.${action}` } });
    handlers[action] = handler;
  };

  route('GET', '/roles', 'role.find', async (ctx) => {
    // Strapi reads its roles table without an ORDER BY (its `sort: ['name']` is not an option of that
    // query), so it lists them as PostgreSQL stores them: by their last write, an edited role last
    const roles = await app.documents(ROLE_UID).findMany({
      populate: { users: { count: true } },
      sort: [
        { field: { kind: 'system', name: 'updatedAt' }, order: 'asc' },
        { field: { kind: 'system', name: 'id' }, order: 'asc' },
      ],
      pagination: { start: 0, limit: maxLimit, style: 'page', withCount: false },
    });
    ctx.body = {
      roles: roles.map((r) => ({ ...shown(r), nb_users: (r.users as { count?: number } | null)?.count ?? 0 })),
    };
  });

  route('GET', '/roles/:id', 'role.findOne', async (ctx) => {
    const role = await roleById(app.documents, ctx.params.id);
    ctx.body = { role: { ...shown(role), permissions: toPermissionsTree(knownActions(), new Set(grantsOf(role))) } };
  });

  route('POST', '/roles', 'role.createRole', async (ctx) => {
    const input = parseRoleBody(ctx.request.body, 'create');
    const permissions = input.permissions ?? [];
    checkActions(permissions, knownActions());
    // a taken type is refused by the unique index on `type`, not by a racy lookup; its error
    // only says "must be unique", and the caller may not have sent a type at all
    await app.documents
      .transaction(async (documents) => {
        await documents(ROLE_UID).create({
          data: {
            name: input.name,
            description: input.description ?? '',
            type: input.type,
            permissions: [...new Set(permissions)].sort(),
          },
        });
      })
      .catch((err: unknown) => {
        throw uniqueViolationOf(err) === 'type'
          ? validationError(`A role of type "${input.type}" already exists`, (err as AppError).details, { cause: err })
          : err;
      });
    ctx.body = { ok: true };
  });

  route('PUT', '/roles/:id', 'role.updateRole', async (ctx) => {
    const input = parseRoleBody(ctx.request.body, 'update');
    await app.documents.transaction(async (documents) => {
      const role = await roleById(documents, ctx.params.id);
      const data: Record<string, unknown> = {};
      if (input.name !== undefined) data.name = input.name;
      if (input.description !== undefined) data.description = input.description ?? '';
      if (input.permissions !== undefined) {
        // what the role already holds is not a new grant: keeps a GET → PUT round trip valid
        checkActions(input.permissions, new Set([...knownActions(), ...grantsOf(role)]));
        data.permissions = [...new Set(input.permissions)].sort();
      }
      if (Object.keys(data).length > 0)
        await documents(ROLE_UID).update({ documentId: role.documentId as string, data });
    });
    ctx.body = { ok: true };
  });

  route('DELETE', '/roles/:id', 'role.deleteRole', async (ctx) => {
    await app.documents.transaction(async (documents) => {
      const role = await roleById(documents, ctx.params.id);
      if (BUILT_IN.has(String(role.type))) throw applicationError('Cannot delete public or authenticated roles');
      const fallback = await documents(ROLE_UID).findFirst({
        filters: resolveFilters(app.registry, ROLE_UID, { type: 'authenticated' }),
      });
      if (!fallback) throw applicationError('The authenticated role is missing');
      // as Strapi: the role's users are not left without one, they become authenticated users
      const users = await documents(USER_UID).findMany({
        filters: resolveFilters(app.registry, USER_UID, { role: { id: role.id } }),
        fields: ['username'],
      });
      for (const user of users) {
        await documents(USER_UID).update({
          documentId: user.documentId as string,
          data: { role: fallback.documentId },
        });
      }
      await documents(ROLE_UID).delete({ documentId: role.documentId as string });
    });
    ctx.body = { ok: true };
  });

  route('GET', '/permissions', 'permissions.getPermissions', async (ctx) => {
    ctx.body = { permissions: toPermissionsTree(knownActions(), new Set()) };
  });
  return handlers;
}
