import {
  type App,
  fieldErrors,
  type FieldIssue,
  isPlainObject,
  resolveFilters,
  sanitizeInput,
  validationError,
} from '../../core/index.ts';
import { ROLE_UID, USER_UID } from './schemas.ts';
import { stringIssues } from './auth-shared.ts';

const ROLE_ID = /^\d{1,15}$/;

/** A role given by its numeric id (`3`, `"3"`, `{id: 3}`), as Strapi's clients send it; undefined otherwise. */
function roleIdOf(value: unknown): number | undefined {
  const raw = isPlainObject(value) && Object.keys(value).length === 1 ? value.id : value;
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return raw;
  if (typeof raw === 'string' && ROLE_ID.test(raw)) return Number(raw);
  return undefined;
}

/**
 * Strapi's checks of a `POST /users` body (its yup schema), every problem at once in its order:
 * email, username and password are strings, and a role is given (an id, a documentId, or a
 * `connect` naming one); there is no default role on this route, unlike registration.
 */
export function checkNewUser(body: Record<string, unknown>): void {
  const issues = stringIssues(body, ['email', 'username', 'password']);
  const { role } = body;
  const problem = (path: string[], message: string, value?: unknown): FieldIssue => ({
    path,
    message,
    name: 'ValidationError',
    ...(value === undefined ? {} : { value }),
  });
  if (role === undefined) {
    issues.push(problem(['role'], 'role is a required field'));
  } else if (role === null) {
    const message = 'role must be a `object` type, but the final value was: `null`.';
    issues.push({ ...problem(['role'], message), value: null });
  } else if (isPlainObject(role)) {
    // an object is a relation input: only `connect` names a role here (`{id: 3}` does not)
    if (!Array.isArray(role.connect)) issues.push(problem(['role', 'connect'], 'role.connect is a required field'));
    else if (role.connect.length === 0) issues.push(problem(['role', 'connect'], 'Users must have a role', []));
  }
  if (issues.length > 0) throw fieldErrors(issues);
}

/**
 * The body of POST/PUT /users (a bare object, no `data` wrapper) as document data: what the
 * content API may write (`sanitizeInput` drops private attributes, so a client never sets a
 * reset or confirmation token) plus the password, the one private attribute these routes
 * write. The email is stored lowercased, and a role given by its numeric id becomes its
 * documentId (other relation inputs are the core's to check).
 */
export async function userData(app: App, body: unknown): Promise<Record<string, unknown>> {
  if (!isPlainObject(body)) throw validationError('The request body must be an object');
  const data = sanitizeInput(app.registry, USER_UID, body);
  if (Object.hasOwn(body, 'password')) data.password = body.password;
  if (typeof data.email === 'string') data.email = data.email.toLowerCase();
  const roleId = roleIdOf(data.role);
  if (roleId !== undefined) {
    const role = await app
      .documents(ROLE_UID)
      .findFirst({ filters: resolveFilters(app.registry, ROLE_UID, { id: roleId }) });
    if (!role)
      throw fieldErrors([
        { path: ['role'], message: `role ${roleId} does not exist`, name: 'ValidationError', value: data.role },
      ]);
    data.role = String(role.documentId);
  }
  return data;
}
