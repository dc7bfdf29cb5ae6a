/**
 * The writes Strapi 4's GraphQL plugin gives users-permissions and upload's files: users and
 * roles CRUD through REST's handlers (same permissions, checks and errors), `emailConfirmation`
 * answering `{jwt, user}`, and `create/update/deleteUploadFile` on the upload service. In both
 * shapes: Strapi 5's user writes answer `{ data }` with the flat user (its documentId; addressed by
 * row id); its roles' writes and emailConfirmation are Strapi 4's; its files have
 * `updateUploadFile(id, info)` and `deleteUploadFile(id)` answering the `UploadFile`, no create.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadPlugin } from '../../plugins/upload/index.ts';
import type { EmailMessage } from '../../plugins/users-permissions/config.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, unwrapEntity } from '../helpers/graphql-shapes.ts';

const DOCUMENT_ID = /^[a-z0-9]{24}$/;

describe.each(SHAPES)('users, roles and files written over GraphQL (%s shape)', (shape) => {
  const flat = shape === 'flat';
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

  /** The user a write answers, as `{ documentId, username, …, role }` (Strapi 4's `documentId` is its row id). */
  const userOf = (res: { body: any }, field: string): Record<string, any> =>
    flat ? res.body.data[field].data : unwrapEntity(res.body.data[field]);
  /** The row id a user write addresses its user by (Strapi 4's answer names it; Strapi 5's, the documentId). */
  const rowIdOf = async (user: Record<string, any>): Promise<string> =>
    flat ? String((await t.sql('up_users').where({ document_id: user.documentId }).first()).id) : user.documentId;

  const USER_FIELDS = 'username email confirmed blocked';
  /** A user write's selection: Strapi 4's entity, Strapi 5's `{ data }` with the flat user. */
  const USER = flat
    ? `data { documentId ${USER_FIELDS} role { type } }`
    : `data { id attributes { ${USER_FIELDS} role { data { attributes { type } } } } }`;
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
          ...shapeConfig(shape).plugins,
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
      const user = userOf(created, 'createUsersPermissionsUser');
      expect(user).toEqual({
        documentId: flat ? expect.stringMatching(DOCUMENT_ID) : expect.stringMatching(/^\d+$/),
        username: 'gqlcrud',
        email: 'crud@example.com',
        confirmed: true,
        blocked: false,
        role: { type: 'authenticated' },
      });
      const id = await rowIdOf(user);
      const row = await userRow(id);
      if (flat) expect(row.document_id).toBe(user.documentId);
      expect(row.data.password).toMatch(/^\$2[aby]\$/);
      expect(JSON.stringify(created.body)).not.toContain('secret123');
      const rest = await t.request('GET', `/api/users/${id}`);
      expect(rest.body).toMatchObject({ username: 'gqlcrud', email: 'crud@example.com' });
      expect(rest.body.password).toBeUndefined();

      const taken = await gql(CREATE_USER, { data: { ...data, username: 'other' } });
      expect(taken.body.errors[0]).toMatchObject({ message: 'Email already taken' });
      // the write's answer is non-null in both shapes, so its failure nulls `data` (GraphQL's rule)
      expect(taken.body.data).toBeNull();

      const updated = await gql(UPDATE_USER, { id, data: { username: 'gqlcrud2', blocked: true } });
      expect(updated.body.errors).toBeUndefined();
      expect(userOf(updated, 'updateUsersPermissionsUser')).toEqual({ ...user, username: 'gqlcrud2', blocked: true });
      expect((await t.request('GET', `/api/users/${id}`)).body).toMatchObject({ username: 'gqlcrud2' });

      const deleted = await gql(DELETE_USER, { id });
      expect(deleted.body.errors).toBeUndefined();
      expect(userOf(deleted, 'deleteUsersPermissionsUser')).toMatchObject({
        documentId: user.documentId,
        username: 'gqlcrud2',
      });
      expect(await userRow(id)).toBeUndefined();
      const again = await gql(DELETE_USER, { id });
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
      const user = userOf(res, 'createUsersPermissionsUser');
      const id = await rowIdOf(user);
      expect(user).toMatchObject({ username: 'gqlperm', role: null });
      expect(res.body.errors.map((e: any) => e.extensions.code)).toEqual(['FORBIDDEN']);
      const upd = await gql(UPDATE_USER, { id, data: { blocked: true } }, '');
      expect(upd.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const del = await gql(DELETE_USER, { id }, await tokenFor(['plugin::users-permissions.user.update']));
      expect(del.body.errors[0].extensions.code).toBe('FORBIDDEN');
      const deleted = await gql(DELETE_USER, { id }, granted);
      expect(userOf(deleted, 'deleteUsersPermissionsUser').documentId).toBe(user.documentId);
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
    /** A file: Strapi 4's entity (named by its row id), Strapi 5's `UploadFile` (with its documentId). */
    const FILE = flat
      ? 'documentId name caption alternativeText'
      : 'data { id attributes { name caption alternativeText } }';
    const upload = async (name: string) => {
      const [doc] = await t.app
        .plugin(uploadPlugin)
        .service.upload([{ name, mime: 'text/plain', buffer: Buffer.from('hello') }], []);
      return { id: String(doc.id), documentId: doc.documentId as string };
    };
    /** The file a write answers, as `{ documentId, name, … }` (Strapi 4's `documentId` is its row id). */
    const fileOf = (res: { body: any }, field: string) =>
      flat ? res.body.data[field] : unwrapEntity(res.body.data[field]);

    it('refuses createUploadFile: files are created by upload (Strapi 5 has no such mutation)', async () => {
      const res = await gql(`mutation { createUploadFile(data: { name: "x.txt", url: "/x" }) { ${FILE} } }`);
      expect(res.body.errors[0].extensions.code).toBe(flat ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_USER_INPUT');
      const denied = await gql(`mutation { createUploadFile(data: { name: "x.txt" }) { ${FILE} } }`, {}, '');
      expect(denied.body.errors[0].extensions.code).toBe(flat ? 'GRAPHQL_VALIDATION_FAILED' : 'FORBIDDEN');
      expect(await t.sql('files').whereRaw("data->>'name' = 'x.txt'").first()).toBeUndefined();
    });

    it('updates a file as updateFileInfo does, and deletes it as removeFile does', async () => {
      const { id, documentId } = await upload('a.txt');
      // Strapi 4's update takes `data: UploadFileInput`, Strapi 5's `info: FileInfoInput` (no url in it)
      const UPDATE = flat
        ? `mutation($id: ID!, $data: FileInfoInput) { updateUploadFile(id: $id, info: $data) { ${FILE} } }`
        : `mutation($id: ID!, $data: UploadFileInput!) { updateUploadFile(id: $id, data: $data) { ${FILE} } }`;
      const DELETE = `mutation($id: ID!) { deleteUploadFile(id: $id) { ${FILE} } }`;
      const data = { name: 'b.txt', caption: 'c' };
      const readOnly = await tokenFor(['plugin::upload.content-api.find']);
      expect((await gql(UPDATE, { id, data }, '')).body.errors[0].extensions.code).toBe('FORBIDDEN');
      expect((await gql(UPDATE, { id, data }, readOnly)).body.errors[0].extensions.code).toBe('FORBIDDEN');
      const upd = await gql(UPDATE, { id, data }, await tokenFor(['plugin::upload.content-api.upload']));
      expect(upd.body.errors).toBeUndefined();
      const file = { documentId: flat ? documentId : id, name: 'b.txt', caption: 'c', alternativeText: null };
      expect(fileOf(upd, 'updateUploadFile')).toEqual(file);
      const url = await gql(UPDATE, { id, data: { url: '/elsewhere' } });
      expect(url.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
      const unknown = await gql(UPDATE, { id: '999999', data });
      // Strapi 5's `updateUploadFile` is non-null: the unknown file nulls `data`
      if (flat) expect(unknown.body).toMatchObject({ data: null, errors: [{ message: 'Entity not found' }] });
      else expect(unknown.body.data.updateUploadFile).toEqual({ data: null });

      expect((await gql(DELETE, { id }, readOnly)).body.errors[0].extensions.code).toBe('FORBIDDEN');
      const del = await gql(DELETE, { id }, await tokenFor(['plugin::upload.content-api.destroy']));
      expect(del.body.errors).toBeUndefined();
      expect(fileOf(del, 'deleteUploadFile')).toEqual(file);
      expect(
        await t
          .sql('files')
          .where({ id: Number(id) })
          .first(),
      ).toBeUndefined();
      expect((await gql(DELETE, { id })).body.data.deleteUploadFile).toEqual(flat ? null : { data: null });
    });
  });
});
