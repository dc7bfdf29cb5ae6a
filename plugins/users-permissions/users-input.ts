import { fieldErrors, validationError } from '../../core/errors.ts';
import { isPlainObject } from '../../core/config/merge.ts';
import type { App } from '../../core/kernel/app.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import { ROLE_UID, USER_UID } from './schemas.ts';

const ROLE_ID = /^\d{1,15}$/;

/** A role given by its numeric id (`3`, `"3"`, `{id: 3}`), as Strapi's clients send it; undefined otherwise. */
function roleIdOf(value: unknown): number | undefined {
  const raw = isPlainObject(value) && Object.keys(value).length === 1 ? value.id : value;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && ROLE_ID.test(raw)) return Number(raw);
  return undefined;
}

/**
 * The body of POST/PUT /users (a bare object, no `data` wrapper) as document data. Private
 * attributes other than the password are dropped, as the content API drops them: a client
 * never sets a reset or confirmation token. The email is stored lowercased, and a role given
 * by its numeric id becomes its documentId (other relation inputs are the core's to check).
 */
export async function userData(app: App, body: unknown): Promise<Record<string, unknown>> {
  if (!isPlainObject(body)) throw validationError('The request body must be an object');
  const attributes = app.registry.attributesOf(USER_UID);
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const attr = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    if (attr?.private && attr.type !== 'password') continue;
    // defined, not assigned: a `__proto__` key stays a plain key for the core to refuse
    Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true });
  }
  if (typeof data.email === 'string') data.email = data.email.toLowerCase();
  const roleId = roleIdOf(data.role);
  if (roleId !== undefined) {
    const role = await app.documents(ROLE_UID).findFirst({ filters: resolveFilters(app.registry, ROLE_UID, { id: roleId }) });
    if (!role) throw fieldErrors([{ path: ['role'], message: `role ${roleId} does not exist`, name: 'ValidationError', value: data.role }]);
    data.role = String(role.documentId);
  }
  return data;
}
