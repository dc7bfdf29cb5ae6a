import { fieldErrors, type FieldIssue, isPlainObject, validationError } from '../../core/index.ts';
import { splitAction } from './roles.ts';

/** What a roles API body may change; `permissions` is the list of enabled actions of its tree. */
export interface RoleInput {
  name?: string;
  description?: string | null;
  type?: string;
  permissions?: string[];
}

const TYPE = /^[a-z0-9][a-z0-9_-]{0,99}$/;

const issue = (path: string[], message: string, value: unknown): FieldIssue => ({
  path,
  message,
  name: 'ValidationError',
  value,
});

/**
 * A role's `type` from its name: lowercased, accents dropped, every run of other characters
 * one '-', none at either end ("Content Editors" → "content-editors"); '' when nothing is left.
 */
export function roleTypeOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}

/**
 * The enabled actions of a permissions tree, checking its shape strictly: a malformed tree
 * is a 400 naming where, never a silent partial grant (Strapi's own parser skips bad parts,
 * which would revoke actions the client meant to keep).
 */
export function parsePermissionsTree(tree: unknown, issues: FieldIssue[], at: string[] = ['permissions']): string[] {
  const enabled: string[] = [];
  if (!isPlainObject(tree)) {
    issues.push(issue(at, `${at.join('.')} must be an object`, tree));
    return enabled;
  }
  for (const [type, entry] of Object.entries(tree)) {
    const controllers = isPlainObject(entry) ? entry.controllers : undefined;
    if (!isPlainObject(controllers)) {
      issues.push(
        issue([...at, type, 'controllers'], `${[...at, type].join('.')} must have a controllers object`, entry),
      );
      continue;
    }
    for (const [controller, actions] of Object.entries(controllers)) {
      const where = [...at, type, 'controllers', controller];
      if (!isPlainObject(actions)) {
        issues.push(issue(where, `${where.join('.')} must be an object of actions`, actions));
        continue;
      }
      for (const [name, value] of Object.entries(actions)) {
        const path = [...where, name];
        const flag = isPlainObject(value) ? value.enabled : undefined;
        const policy = isPlainObject(value) ? value.policy : undefined;
        if (
          !isPlainObject(value) ||
          (flag !== undefined && typeof flag !== 'boolean') ||
          (policy !== undefined && policy !== null && typeof policy !== 'string')
        ) {
          issues.push(issue(path, `${path.join('.')} must be { enabled: boolean, policy?: string }`, value));
          continue;
        }
        if (flag === true) enabled.push(`${type}.${controller}.${name}`);
      }
    }
  }
  return enabled;
}

/**
 * The body of `POST /roles` (`create`: name required) or `PUT /roles/:id`. Keys other than
 * name, description, type and permissions are ignored, as Strapi picks the ones it uses
 * (its admin sends `users: []` along); `type` only counts on create: a role's type is what
 * code and config refer to, so it never changes.
 */
export function parseRoleBody(body: unknown, mode: 'create' | 'update'): RoleInput {
  if (!isPlainObject(body)) throw validationError('The request body must be an object');
  const issues: FieldIssue[] = [];
  const out: RoleInput = {};
  if (body.name !== undefined || mode === 'create') {
    if (typeof body.name !== 'string' || body.name.trim() === '')
      issues.push(issue(['name'], 'name must be a non-empty string', body.name ?? null));
    else out.name = body.name.trim();
  }
  if (body.description !== undefined) {
    if (body.description !== null && typeof body.description !== 'string')
      issues.push(issue(['description'], 'description must be a string', body.description));
    else out.description = body.description;
  }
  if (mode === 'create') {
    if (body.type !== undefined && body.type !== null) {
      if (typeof body.type !== 'string' || !TYPE.test(body.type)) {
        issues.push(
          issue(
            ['type'],
            'type must be lowercase letters, digits, "-" or "_", starting with a letter or digit',
            body.type,
          ),
        );
      } else out.type = body.type;
    } else if (out.name !== undefined) {
      const derived = roleTypeOf(out.name);
      if (derived === '')
        issues.push(issue(['name'], 'name must contain a letter or a digit (the role type is made from it)', out.name));
      else out.type = derived;
    }
  }
  if (body.permissions !== undefined) out.permissions = parsePermissionsTree(body.permissions, issues);
  if (issues.length > 0) throw fieldErrors(issues);
  return out;
}

/**
 * The granted actions that name nothing that exists (`allowed`: every route's action, plus
 * what the role holds already, so a tree read from GET and sent back is always accepted).
 */
export function unknownActions(actions: readonly string[], allowed: ReadonlySet<string>): string[] {
  return [...new Set(actions.filter((a) => !allowed.has(a) || !splitAction(a)))].sort();
}
