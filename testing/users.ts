/**
 * A users-permissions user and its JWT, for tests of what a signed-in user may do: made through
 * the document service (the password hashed as on register), its token issued as login issues it.
 */
import { randomBytes } from 'node:crypto';
import type { App } from '../core/index.ts';
import { usersPermissionsPlugin } from '../plugins/users-permissions/index.ts';
import { USER_UID } from '../plugins/users-permissions/schemas.ts';

export interface TestUserOptions {
  /** the role's `type`: `authenticated` (the default), `public`, or one of config/plugins' roles */
  role?: string;
  /** defaults: a unique username and `<username>@example.test` */
  username?: string;
  email?: string;
  password?: string;
  /** more attributes of the user (an app's own, from its user schema extension) */
  data?: Record<string, unknown>;
}

export interface TestUser {
  jwt: string;
  id: number;
  documentId: string;
  username: string;
  email: string;
  password: string;
}

/** Create a confirmed, unblocked user with the role and sign its JWT. */
export async function createTestUser(app: App, options: TestUserOptions = {}): Promise<TestUser> {
  if (!app.hasPlugin(usersPermissionsPlugin)) throw new Error('users need the users-permissions plugin');
  const up = app.plugin(usersPermissionsPlugin);
  const type = options.role ?? 'authenticated';
  const role = await up.roles.byType(type);
  if (!role) throw new Error(`there is no role of type "${type}" (config/plugins → users-permissions.roles)`);
  const username = options.username ?? `user-${randomBytes(6).toString('hex')}`;
  const email = options.email ?? `${username}@example.test`;
  const password = options.password ?? randomBytes(12).toString('base64url');
  const user = await app.documents(USER_UID).create({
    data: {
      ...options.data,
      username,
      email,
      password,
      provider: 'local',
      confirmed: true,
      blocked: false,
      role: String(role.documentId),
    },
  });
  const id = Number(user.id);
  const jwt = await up.jwt().issue({ id });
  return { jwt, id, documentId: String(user.documentId), username, email, password };
}
