import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';

/**
 * The users and roles routes answer what Strapi 5.54 answers to the same requests (each expected
 * status and body below is the reference's answer, ids and timestamps aside).
 */
let t: TestApp;
const ROLES = '/api/users-permissions/roles';
const ROLE_KEYS = ['id', 'documentId', 'name', 'description', 'type', 'createdAt', 'updatedAt', 'publishedAt'];
const USER_KEYS = [
  'id',
  'documentId',
  'username',
  'email',
  'provider',
  'confirmed',
  'blocked',
  'createdAt',
  'updatedAt',
  'publishedAt',
];
const issue = (path: string[], message: string, extra: object = {}) => ({
  path,
  message,
  name: 'ValidationError',
  ...extra,
});
const invalid = (message: string, errors: unknown[]) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { errors } },
});

let n = 0;
const someone = (extra: Record<string, unknown> = {}): Record<string, unknown> => {
  n += 1;
  return { username: `user${n}`, email: `user${n}@example.com`, password: 'secret123', ...extra };
};
const userRows = async (): Promise<number> => Number((await t.sql('up_users').count({ n: '*' }).first())!.n);
const roleNamed = async (type: string): Promise<{ id: number; documentId: string }> => {
  const role = (await t.app.plugin(usersPermissionsPlugin).roles.byType(type))!;
  return { id: Number(role.id), documentId: String(role.documentId) };
};

beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

describe('POST /api/users needs a role', () => {
  it("refuses a user without role (400, every missing field named in Strapi's order), storing nothing", async () => {
    const before = await userRows();
    const res = await t.request('POST', '/api/users', { username: 'alice', email: 'a@a.example', password: 'secret1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('role is a required field', [issue(['role'], 'role is a required field')]));
    expect((await t.request('POST', '/api/users', {})).body).toEqual(
      invalid('4 errors occurred', [
        issue(['email'], 'email is a required field'),
        issue(['username'], 'username is a required field'),
        issue(['password'], 'password is a required field'),
        issue(['role'], 'role is a required field'),
      ]),
    );
    const twoMissing = await t.request('POST', '/api/users', { username: 'bob', password: 'secret123' });
    expect(twoMissing.body).toEqual(
      invalid('2 errors occurred', [
        issue(['email'], 'email is a required field'),
        issue(['role'], 'role is a required field'),
      ]),
    );
    expect(await userRows()).toBe(before);
  });

  it('refuses a null role, an object role without connect, and an empty connect, as Strapi words them', async () => {
    const nullRole = 'role must be a `object` type, but the final value was: `null`.';
    expect((await t.request('POST', '/api/users', someone({ role: null }))).body).toEqual(
      invalid(nullRole, [issue(['role'], nullRole, { value: null })]),
    );
    for (const role of [{}, { id: 1 }, { set: [1] }]) {
      const message = 'role.connect is a required field';
      const res = await t.request('POST', '/api/users', someone({ role }));
      expect(res.body).toEqual(invalid(message, [issue(['role', 'connect'], message)]));
    }
    const empty = await t.request('POST', '/api/users', someone({ role: { connect: [] } }));
    const noRole = 'Users must have a role';
    expect(empty.body).toEqual(invalid(noRole, [issue(['role', 'connect'], noRole, { value: [] })]));
  });

  it('takes the role as an id, an id string, a documentId or a connect; 0 means the default role', async () => {
    const authenticated = await roleNamed('authenticated');
    const pub = await roleNamed('public');
    const cases: Array<[unknown, number]> = [
      [pub.id, pub.id],
      [String(pub.id), pub.id],
      [authenticated.documentId, authenticated.id],
      [{ connect: [{ documentId: pub.documentId }] }, pub.id],
      [0, authenticated.id],
    ];
    for (const [role, expected] of cases) {
      const res = await t.request('POST', '/api/users', someone({ role }));
      expect([role, res.status, res.body.role?.id]).toEqual([role, 201, expected]);
    }
  });
});

describe('create and update answer the user with its role', () => {
  it("create: 201 with the role, showing the role's fields and no permissions", async () => {
    const authenticated = await roleNamed('authenticated');
    const res = await t.request('POST', '/api/users', someone({ role: authenticated.id }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual([...USER_KEYS, 'role']);
    expect(Object.keys(res.body.role)).toEqual(ROLE_KEYS);
    expect(res.body.role).toMatchObject({
      id: authenticated.id,
      documentId: authenticated.documentId,
      name: 'Authenticated',
      description: 'Default role given to authenticated user.',
      type: 'authenticated',
    });
  });

  it('update: 200 with the role as it is after the update, whatever the query asks', async () => {
    const created = (await t.request('POST', '/api/users', someone({ role: 1 }))).body;
    const pub = await roleNamed('public');
    const renamed = await t.request('PUT', `/api/users/${created.id}?fields[0]=username`, { username: 'renamed' });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.body)).toEqual([...USER_KEYS, 'role']);
    expect(renamed.body.role.type).toBe('authenticated');
    const moved = await t.request('PUT', `/api/users/${created.id}`, { role: pub.id });
    expect(moved.body.role).toMatchObject({ id: pub.id, type: 'public' });
    expect(Object.keys(moved.body.role)).toEqual(ROLE_KEYS);
  });

  it('leaves the role out for a caller who may not read roles (a token that may write users)', async () => {
    const api = t.app.plugin(usersPermissionsPlugin);
    const token = await api.tokens.create({
      name: 'user-admin',
      type: 'custom',
      permissions: ['plugin::users-permissions.user.create', 'plugin::users-permissions.user.update'],
    });
    const auth = { authorization: `Bearer ${token.accessKey}` };
    const created = await t.request('POST', '/api/users', someone({ role: 1 }), auth);
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(USER_KEYS);
    const updated = await t.request('PUT', `/api/users/${created.body.id}`, { blocked: true }, auth);
    expect(updated.status).toBe(200);
    expect(Object.keys(updated.body)).toEqual(USER_KEYS);
  });
});

describe('a populated role', () => {
  it('carries no permissions list, through populate=role, populate=* or a list', async () => {
    const user = (await t.request('POST', '/api/users', someone({ role: 1 }))).body;
    const plain = await t.request('GET', `/api/users/${user.id}`);
    expect(Object.keys(plain.body)).toEqual(USER_KEYS);
    for (const path of [`/api/users/${user.id}?populate=role`, `/api/users/${user.id}?populate=*`]) {
      const res: TestResponse = await t.request('GET', path);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.role)).toEqual(ROLE_KEYS);
    }
    const list = await t.request('GET', `/api/users?populate=role&filters[id][$eq]=${user.id}`);
    expect(Object.keys(list.body[0].role)).toEqual(ROLE_KEYS);
  });
});

describe('GET /api/users-permissions/roles', () => {
  it('lists roles as Strapi does: Authenticated (1), Public (2), then by creation, an edited role last', async () => {
    const start: Array<{ id: number; type: string }> = (await t.request('GET', ROLES)).body.roles;
    expect(start.map((r) => [r.id, r.type])).toEqual([
      [1, 'authenticated'],
      [2, 'public'],
    ]);
    for (const name of ['Zeta', 'alpha', 'Editor', 'Beta']) {
      expect((await t.request('POST', ROLES, { name, description: 'd', permissions: {} })).body).toEqual({ ok: true });
    }
    const list = async (): Promise<Array<{ id: number; name: string }>> => (await t.request('GET', ROLES)).body.roles;
    const names = async (): Promise<string[]> => (await list()).map((r) => r.name);
    expect(await names()).toEqual(['Authenticated', 'Public', 'Zeta', 'alpha', 'Editor', 'Beta']);
    const zeta = (await list()).find((r) => r.name === 'Zeta')!;
    const renamed = await t.request('PUT', `${ROLES}/${zeta.id}`, { name: 'Zeta2', description: 'x' });
    expect(renamed.body).toEqual({ ok: true });
    const authenticated = { name: 'Authenticated', description: 'Default role given to authenticated user.' };
    expect((await t.request('PUT', `${ROLES}/1`, authenticated)).status).toBe(200);
    expect(await names()).toEqual(['Public', 'alpha', 'Editor', 'Beta', 'Zeta2', 'Authenticated']);
  });
});
