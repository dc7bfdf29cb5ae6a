import { type App, type Doc, resolveFilters } from '../../core/index.ts';
import type { RoleConfig } from './config.ts';
import { ROLE_UID } from './schemas.ts';

const UP = 'plugin::users-permissions';

/** What Strapi grants the two built-in roles when it creates them. */
export const DEFAULT_ROLES: Record<string, Required<RoleConfig>> = {
  // in Strapi's order of creation: Authenticated is role 1 and Public role 2, ids clients rely on
  authenticated: {
    name: 'Authenticated',
    description: 'Default role given to authenticated user.',
    permissions: [`${UP}.user.me`, `${UP}.auth.changePassword`],
  },
  public: {
    name: 'Public',
    description: 'Default role given to unauthenticated user.',
    permissions: [
      `${UP}.auth.callback`,
      `${UP}.auth.register`,
      `${UP}.auth.forgotPassword`,
      `${UP}.auth.resetPassword`,
      `${UP}.auth.emailConfirmation`,
      `${UP}.auth.sendEmailConfirmation`,
      `${UP}.auth.connect`,
    ],
  },
};

export interface RoleService {
  /** the actions a role grants (cached; writes to roles clear the cache) */
  actionsOf(roleId: number): Promise<ReadonlySet<string>>;
  /** the role with this `type` (public, authenticated, …), with its grant list (`permissions`) */
  byType(type: string): Promise<Doc | null>;
  /** the id of the role with this `type`, cached like the grants (null when there is none) */
  byTypeCached(type: string): Promise<number | null>;
  /** create the built-in and configured roles, and grant the configured actions they lack */
  applyConfig(roles: Record<string, RoleConfig>): Promise<void>;
  /** forget cached grants (after a write to a role) */
  invalidate(): void;
}

const actionsIn = (doc: Doc | null): string[] =>
  Array.isArray(doc?.permissions)
    ? (doc.permissions as unknown[]).filter((a): a is string => typeof a === 'string')
    : [];

/**
 * Roles and their grants. A role's permissions are a list of action uids in its document;
 * the cache holds each role's set until a role is written in this process (the roles API
 * writes through the document service, whose middleware clears it), and at most
 * `ttlMs` otherwise, so an edit made by another instance is seen within that time.
 */
export function createRoleService(app: App, ttlMs = 10_000): RoleService {
  const docs = () => app.documents(ROLE_UID);
  const cache = new Map<number, { at: number; actions: Promise<ReadonlySet<string>> }>();
  const ids = new Map<string, { at: number; id: Promise<number | null> }>();
  // a role's grant list is private (a populated role never shows it): this service reads it raw
  const byType = (type: string) =>
    docs().findFirst({ filters: resolveFilters(app.registry, ROLE_UID, { type }), raw: true });

  return {
    actionsOf(roleId) {
      const hit = cache.get(roleId);
      if (hit && Date.now() - hit.at < ttlMs) return hit.actions;
      const actions = docs()
        .findFirst({ filters: resolveFilters(app.registry, ROLE_UID, { id: roleId }), raw: true })
        .then((role) => new Set(actionsIn(role)) as ReadonlySet<string>);
      cache.set(roleId, { at: Date.now(), actions });
      actions.catch(() => cache.delete(roleId));
      return actions;
    },
    byType,
    byTypeCached(type) {
      const hit = ids.get(type);
      if (hit && Date.now() - hit.at < ttlMs) return hit.id;
      const id = byType(type).then((r) => (r ? Number(r.id) : null));
      ids.set(type, { at: Date.now(), id });
      id.catch(() => ids.delete(type));
      return id;
    },
    async applyConfig(roles) {
      const wanted = new Map<string, RoleConfig>();
      for (const [type, r] of Object.entries(DEFAULT_ROLES)) wanted.set(type, { ...r, permissions: [] });
      for (const [type, r] of Object.entries(roles)) wanted.set(type, r);
      await app.documents.transaction(async (documents) => {
        for (const [type, r] of wanted) {
          const existing = await documents(ROLE_UID).findFirst({
            filters: resolveFilters(app.registry, ROLE_UID, { type }),
            raw: true,
          });
          if (!existing) {
            const defaults = DEFAULT_ROLES[type];
            await documents(ROLE_UID).create({
              data: {
                type,
                name: r.name ?? defaults?.name ?? type[0].toUpperCase() + type.slice(1),
                description: r.description ?? defaults?.description ?? '',
                permissions: [...new Set([...(defaults?.permissions ?? []), ...r.permissions])],
              },
            });
            continue;
          }
          const have = actionsIn(existing);
          const missing = r.permissions.filter((a) => !have.includes(a));
          if (missing.length > 0) {
            await documents(ROLE_UID).update({
              documentId: existing.documentId as string,
              data: { permissions: [...have, ...missing] },
            });
          }
        }
      });
    },
    invalidate: () => {
      cache.clear();
      ids.clear();
    },
  };
}

/**
 * Strapi's nested permissions object:
 * `{ 'api::article': { controllers: { article: { find: { enabled, policy } } } } }`.
 */
export type PermissionsTree = Record<
  string,
  { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }
>;

/** Split `api::article.article.find` / `plugin::upload.content-api.find` into type, controller and action. */
export function splitAction(action: string): [string, string, string] | null {
  const m = /^([a-z]+::[A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_]+)$/.exec(action);
  return m ? [m[1], m[2], m[3]] : null;
}

/** Every known action, each enabled when granted. */
export function toPermissionsTree(known: Iterable<string>, granted: ReadonlySet<string>): PermissionsTree {
  const tree: PermissionsTree = {};
  for (const action of [...new Set([...known, ...granted])].sort()) {
    const parts = splitAction(action);
    if (!parts) continue;
    const [type, controller, name] = parts;
    const controllers = (tree[type] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: granted.has(action), policy: '' };
  }
  return tree;
}

/** The enabled actions of a permissions tree (what `PUT /roles/:id` sends). */
export function fromPermissionsTree(tree: unknown): string[] {
  const out: string[] = [];
  if (!tree || typeof tree !== 'object') return out;
  for (const [type, entry] of Object.entries(tree as Record<string, unknown>)) {
    const controllers = (entry as { controllers?: unknown })?.controllers;
    if (!controllers || typeof controllers !== 'object') continue;
    for (const [controller, actions] of Object.entries(controllers as Record<string, unknown>)) {
      if (!actions || typeof actions !== 'object') continue;
      for (const [name, v] of Object.entries(actions as Record<string, unknown>)) {
        if ((v as { enabled?: unknown })?.enabled === true) out.push(`${type}.${controller}.${name}`);
      }
    }
  }
  return out;
}
