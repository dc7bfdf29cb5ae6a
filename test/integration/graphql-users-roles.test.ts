/**
 * The writes Strapi 4's GraphQL plugin gives users-permissions and upload's files: users and
 * roles CRUD through REST's handlers (same permissions, checks and errors), `emailConfirmation`
 * answering `{jwt, user}`, and `create/update/deleteUploadFile` on the upload service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadPlugin } from '../../plugins/upload/index.ts';
import type { EmailMessage } from '../../plugins/users-permissions/config.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
const mail: EmailMessage[] = [];

/** `key`: undefined → full access, '' → Public, else that token. */
async function gql(query: string, variables: Record<string, unknown> = {}, key?: string) {
  const headers = key === undefined ? undefined : { authorization: key ? `Bearer ${key}` : '' };
  return t.request('POST', '/graphql', { query, variables }, headers);
}

async function tokenFor(permissions: string[]): Promise<string> {
  const name = `gql-crud-${Math.random()}`;
  return (await t.app.plugin(usersPermissionsPlugin).tokens.create({ name, type: 'custom', permissions })).accessKey;
}

const userRow = async (id: string) =>
  t
    .sql('up_users')
    .where({ id: Number(id) })
    .first();

const roleId = async (type: string): Promise<string> => {
  const r = await t.sql('up_roles').whereRaw("data->>'type' = ?", [type]).first();
  return String(r.id);
};

const USER = 'data { id attributes { username email confirmed blocked role { data { attributes { type } } } } }';
const CREATE_USER = `mutation($data: UsersPermissionsUserInput!) {
  createUsersPermissionsUser(data: $data) { ${USER} } }`;
const UPDATE_USER = `mutation($id: ID!, $data: UsersPermissionsUserInput!) {
  updateUsersPermissionsUser(id: $id, data: $data) { ${USER} } }`;
const DELETE_USER = `mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { ${USER} } }`;
const CREATE_ROLE = `mutation($data: UsersPermissionsRoleInput!) { createUsersPermissionsRole(data: $data) { ok } }`;
const UPDATE_ROLE = `mutation($id: ID!, $data: UsersPermissionsRoleInput!) {
  updateUsersPermissionsRole(id: $id, data: $data) { ok } }`;
const DELETE_ROLE = `mutation($id: ID!) { deleteUsersPermissionsRole(id: $id) { ok } }`;
const CONFIRM = `mutation($c: String!) { emailConfirmation(confirmation: $c) { jwt user { username confirmed } } }`;

beforeAll(async () => {
  t = await startApp({
    config: {
      server: { url: 'https://cms.example.test' },
      plugins: {
        'users-permissions': {
          config: {
            emailConfirmation: true,
            ratelimit: { enabled: false },
            email: { send: (m: EmailMessage) => void mail.push(m) },
          },
        },
      },
    },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('users over GraphQL', () => {
  it('creates, updates and deletes a user as REST does; the password is hashed and never readable', async () => {
    const role = await roleId('authenticated');
    const data = { username: 'gqlcrud', email: 'Crud@Example.com', password: 'secret123', role, confirmed: true };
    const created = await gql(CREATE_USER, { data });
    expect(created.body.errors).toBeUndefined();
    const user = created.body.data.createUsersPermissionsUser.data;
    expect(user.attributes).toEqual({
      username: 'gqlcrud',
      email: 'crud@example.com',
      confirmed: true,
      blocked: false,
      role: { data: { attributes: { type: 'authenticated' } } },
    });
    const row = await userRow(user.id);
    expect(row.data.password).toMatch(/^\$2[aby]\$/);
    expect(JSON.stringify(created.body)).not.toContain('secret123');
    const rest = await t.request('GET', `/api/users/${user.id}`);
    expect(rest.body).toMatchObject({ username: 'gqlcrud', email: 'crud@example.com' });
    expect(rest.body.password).toBeUndefined();

    const taken = await gql(CREATE_USER, { data: { ...data, username: 'other' } });
    expect(taken.body.errors[0]).toMatchObject({ message: 'Email already taken' });

    const updated = await gql(UPDATE_USER, { id: user.id, data: { username: 'gqlcrud2', blocked: true } });
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data.updateUsersPermissionsUser.data.attributes).toMatchObject({
      username: 'gqlcrud2',
      blocked: true,
    });
    expect((await t.request('GET', `/api/users/${user.id}`)).body).toMatchObject({ username: 'gqlcrud2' });

    const deleted = await gql(DELETE_USER, { id: user.id });
    expect(deleted.body.errors).toBeUndefined();
    expect(deleted.body.data.deleteUsersPermissionsUser.data).toMatchObject({
      id: user.id,
      attributes: { username: 'gqlcrud2' },
    });
    expect(await userRow(user.id)).toBeUndefined();
    const again = await gql(DELETE_USER, { id: user.id });
    expect(again.body.errors[0].extensions.code).toBe('STRAPI_NOT_FOUND_ERROR');
  });

  it('refuses a user write to Public and to a token without the grant, allows it with the grant', async () => {
    const role = await roleId('authenticated');
    const data = { username: 'gqlperm', email: 'perm@example.com', password: 'secret123', role };
    for (const key of ['', await tokenFor(['plugin::users-permissions.user.find'])]) {
      const res = await gql(CREATE_USER, { data }, key);
      expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect(await t.sql('up_users').whereRaw("data->>'username' = 'gqlperm'").first()).toBeUndefined();
    }
    const granted = await tokenFor([
      'plugin::users-permissions.user.create',
      'plugin::users-permissions.user.update',
      'plugin::users-permissions.user.destroy',
    ]);
    const res = await gql(CREATE_USER, { data }, granted);
    // written; the role is read as any relation: null with FORBIDDEN without the role's `find`
    const id = res.body.data.createUsersPermissionsUser.data.id;
    expect(res.body.data.createUsersPermissionsUser.data.attributes).toMatchObject({ username: 'gqlperm', role: null });
    expect(res.body.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const upd = await gql(UPDATE_USER, { id, data: { blocked: true } }, '');
    expect(upd.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const del = await gql(DELETE_USER, { id }, await tokenFor(['plugin::users-permissions.user.update']));
    expect(del.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const deleted = await gql(DELETE_USER, { id }, granted);
    expect(deleted.body.data.deleteUsersPermissionsUser.data.id).toBe(id);
    expect(await userRow(id)).toBeUndefined();
  });
});

describe('roles over GraphQL', () => {
  it('creates, updates and deletes a role; a taken type is refused as REST refuses it', async () => {
    const create = await gql(CREATE_ROLE, {
      data: { name: 'Editors', description: 'd', type: 'editors', permissions: {} },
    });
    expect(create.body).toEqual({ data: { createUsersPermissionsRole: { ok: true } } });
    const id = await roleId('editors');
    const dup = await gql(CREATE_ROLE, { data: { name: 'Editors 2', type: 'editors' } });
    expect(dup.body.data.createUsersPermissionsRole).toBeNull();
    expect(dup.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const upd = await gql(UPDATE_ROLE, { id, data: { name: 'Writers' } });
    expect(upd.body).toEqual({ data: { updateUsersPermissionsRole: { ok: true } } });
    const rest = await t.request('GET', `/api/users-permissions/roles/${id}`);
    expect(rest.body.role).toMatchObject({ name: 'Writers', type: 'editors' });
    const builtIn = await gql(DELETE_ROLE, { id: await roleId('public') });
    expect(builtIn.body.errors[0].message).toBe('Cannot delete public or authenticated roles');
    expect((await gql(DELETE_ROLE, { id })).body).toEqual({ data: { deleteUsersPermissionsRole: { ok: true } } });
    expect(await t.sql('up_roles').whereRaw("data->>'type' = 'editors'").first()).toBeUndefined();
    const gone = await gql(DELETE_ROLE, { id });
    expect(gone.body.errors[0].extensions.code).toBe('STRAPI_NOT_FOUND_ERROR');
  });

  it('needs the role actions', async () => {
    const data = { name: 'Nope', type: 'nope' };
    for (const key of ['', await tokenFor(['plugin::users-permissions.role.find'])]) {
      expect((await gql(CREATE_ROLE, { data }, key)).body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect((await gql(UPDATE_ROLE, { id: '1', data }, key)).body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect((await gql(DELETE_ROLE, { id: '1' }, key)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
    const granted = await tokenFor(['plugin::users-permissions.role.createRole']);
    expect((await gql(CREATE_ROLE, { data }, granted)).body.errors).toBeUndefined();
  });
});

describe('emailConfirmation over GraphQL', () => {
  it('confirms with a valid token and answers {jwt, user}; an invalid token is refused', async () => {
    const reg = await t.request(
      'POST',
      '/api/auth/local/register',
      { username: 'gqlconf', email: 'conf@example.com', password: 'secret123' },
      { authorization: '' },
    );
    expect(reg.status).toBe(200);
    const row = await t.sql('up_users').whereRaw("data->>'username' = 'gqlconf'").first();
    const token = row.data.confirmationToken as string;
    expect(token).toMatch(/^[0-9a-f]+$/);

    const bad = await gql(CONFIRM, { c: '0123abcd' }, '');
    expect(bad.body.data.emailConfirmation).toBeNull();
    expect(bad.body.errors[0]).toMatchObject({ message: 'Invalid token', extensions: { code: 'BAD_USER_INPUT' } });

    const ok = await gql(CONFIRM, { c: token }, '');
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.emailConfirmation).toEqual({
      jwt: expect.any(String),
      user: { username: 'gqlconf', confirmed: true },
    });
    const after = await t.sql('up_users').where({ id: row.id }).first();
    expect(after.data).toMatchObject({ confirmed: true, confirmationToken: null });
    // the token is spent
    expect((await gql(CONFIRM, { c: token }, '')).body.errors[0].message).toBe('Invalid token');
  });

  it('needs the emailConfirmation action', async () => {
    const res = await gql(CONFIRM, { c: 'abcd' }, await tokenFor(['plugin::users-permissions.auth.callback']));
    expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('upload files over GraphQL', () => {
  const FILE = 'data { id attributes { name caption alternativeText } }';
  const upload = async (name: string) => {
    const [doc] = await t.app
      .plugin(uploadPlugin)
      .service.upload([{ name, mime: 'text/plain', buffer: Buffer.from('hello') }], []);
    return String(doc.id);
  };

  it('refuses createUploadFile: files are created by upload', async () => {
    const res = await gql(`mutation { createUploadFile(data: { name: "x.txt", url: "/x" }) { ${FILE} } }`);
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const denied = await gql(`mutation { createUploadFile(data: { name: "x.txt" }) { ${FILE} } }`, {}, '');
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('updates a file as updateFileInfo does, and deletes it as removeFile does', async () => {
    const id = await upload('a.txt');
    const UPDATE = `mutation($id: ID!, $data: UploadFileInput!) { updateUploadFile(id: $id, data: $data) { ${FILE} } }`;
    const DELETE = `mutation($id: ID!) { deleteUploadFile(id: $id) { ${FILE} } }`;
    const data = { name: 'b.txt', caption: 'c' };
    const readOnly = await tokenFor(['plugin::upload.content-api.find']);
    expect((await gql(UPDATE, { id, data }, '')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(UPDATE, { id, data }, readOnly)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const upd = await gql(UPDATE, { id, data }, await tokenFor(['plugin::upload.content-api.upload']));
    expect(upd.body.errors).toBeUndefined();
    expect(upd.body.data.updateUploadFile.data).toEqual({
      id,
      attributes: { name: 'b.txt', caption: 'c', alternativeText: null },
    });
    const url = await gql(UPDATE, { id, data: { url: '/elsewhere' } });
    expect(url.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await gql(UPDATE, { id: '999999', data })).body.data.updateUploadFile).toEqual({ data: null });

    expect((await gql(DELETE, { id }, readOnly)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const del = await gql(DELETE, { id }, await tokenFor(['plugin::upload.content-api.destroy']));
    expect(del.body.errors).toBeUndefined();
    expect(del.body.data.deleteUploadFile.data).toMatchObject({ id, attributes: { name: 'b.txt' } });
    expect(
      await t
        .sql('files')
        .where({ id: Number(id) })
        .first(),
    ).toBeUndefined();
    expect((await gql(DELETE, { id })).body.data.deleteUploadFile).toEqual({ data: null });
  });
});
