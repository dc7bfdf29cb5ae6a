/**
 * Requests to users-permissions' and upload's operations in the flat shape, as Strapi 5.54 answers
 * them (checked against a running Strapi 5.54), for a suite to call inside a `describe`
 * (graphql-flat.test.ts), `t` an app started with `config: { plugins: { graphql: { config: { shape: 'flat' } } } }`.
 */
import { expect, it } from 'vitest';
import { uploadPlugin } from '../../plugins/upload/index.ts';
import type { TestApp } from './app.ts';

const DOCUMENT_ID = /^[a-z0-9]{24}$/;

/** The cases, on the app `app()` returns (started with the flat shape). */
export function flatPluginCases(app: () => TestApp): void {
  /** `key`: undefined → full access, '' → Public, else that bearer. */
  const gql = (query: string, variables: Record<string, unknown> = {}, key?: string) =>
    app().request(
      'POST',
      '/graphql',
      { query, variables },
      key === undefined ? undefined : { authorization: key ? `Bearer ${key}` : '' },
    );

  it('registers and logs in; the payload’s user and `me` have a documentId', async () => {
    const input = { username: 'flatann', email: 'flatann@example.com', password: 'secret123' };
    const REGISTER = `mutation($input: UsersPermissionsRegisterInput!) {
      register(input: $input) { jwt user { id documentId username email confirmed blocked } } }`;
    const reg = await gql(REGISTER, { input }, '');
    expect(reg.body.errors).toBeUndefined();
    const { jwt, user } = reg.body.data.register;
    expect(user).toEqual({
      id: expect.stringMatching(/^\d+$/),
      documentId: expect.stringMatching(DOCUMENT_ID),
      username: 'flatann',
      email: 'flatann@example.com',
      confirmed: true,
      blocked: false,
    });
    const LOGIN = `mutation { login(input: { identifier: "flatann", password: "secret123" }) {
      user { id documentId } } }`;
    const login = await gql(LOGIN, {}, '');
    expect(login.body.data.login.user).toEqual({ id: user.id, documentId: user.documentId });
    const me = await gql('{ me { id documentId username role { name type } } }', {}, jwt);
    expect(me.body.errors).toBeUndefined();
    expect(me.body.data.me).toEqual({
      id: user.id,
      documentId: user.documentId,
      username: 'flatann',
      role: { name: expect.any(String), type: 'authenticated' },
    });
  });

  it('writes users answering `{ data }`, the flat user (with its role), addressed by row id', async () => {
    const USER = 'data { documentId username blocked role { type } }';
    // REST's rule, as Strapi 5's: a user made on this route names its role
    const role = await app().sql('up_roles').whereRaw("data->>'type' = ?", ['authenticated']).first();
    const create = await gql(
      `mutation($data: UsersPermissionsUserInput!) { createUsersPermissionsUser(data: $data) { ${USER} } }`,
      { data: { username: 'flatbo', email: 'flatbo@example.com', password: 'secret123', role: String(role.id) } },
    );
    expect(create.body.errors, JSON.stringify(create.body.errors)).toBeUndefined();
    const created = create.body.data.createUsersPermissionsUser.data;
    expect(created).toEqual({
      documentId: expect.stringMatching(DOCUMENT_ID),
      username: 'flatbo',
      blocked: false,
      role: { type: 'authenticated' },
    });
    const row = await app().sql('up_users').where({ document_id: created.documentId }).first();
    const id = String(row.id);
    const update = await gql(
      `mutation($id: ID!) { updateUsersPermissionsUser(id: $id, data: { blocked: true }) { ${USER} } }`,
      { id },
    );
    expect(update.body.data.updateUsersPermissionsUser.data).toEqual({ ...created, blocked: true });
    const del = await gql(`mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { ${USER} } }`, { id });
    expect(del.body.data.deleteUsersPermissionsUser.data).toEqual({ ...created, blocked: true });
    expect(await app().sql('up_users').where({ id: row.id }).first()).toBeUndefined();
  });

  it('updates a file’s info and deletes it, answering the UploadFile; unknown ids as Strapi 5', async () => {
    const [doc] = await app()
      .app.plugin(uploadPlugin)
      .service.upload([{ name: 'flat.txt', mime: 'text/plain', buffer: Buffer.from('hello') }], []);
    const id = String(doc.id);
    const FILE = 'documentId name caption alternativeText';
    const UPDATE = `mutation($id: ID!, $info: FileInfoInput) { updateUploadFile(id: $id, info: $info) { ${FILE} } }`;
    const DELETE = `mutation($id: ID!) { deleteUploadFile(id: $id) { ${FILE} } }`;
    const upd = await gql(UPDATE, { id, info: { name: 'b.txt', caption: 'c' } });
    expect(upd.body.errors).toBeUndefined();
    const file = { documentId: doc.documentId, name: 'b.txt', caption: 'c', alternativeText: null };
    expect(upd.body.data.updateUploadFile).toEqual(file);
    expect((await gql(UPDATE, { id }, '')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const unknown = await gql(UPDATE, { id: '999999', info: { name: 'x' } });
    expect(unknown.body).toMatchObject({
      data: null,
      errors: [{ message: 'Entity not found', extensions: { code: 'STRAPI_NOT_FOUND_ERROR' } }],
    });
    expect((await gql(DELETE, { id })).body.data.deleteUploadFile).toEqual(file);
    expect((await gql(DELETE, { id })).body).toEqual({ data: { deleteUploadFile: null } });
  });

  it("has none of Strapi 4's upload mutations", async () => {
    for (const name of ['upload', 'multipleUpload', 'updateFileInfo', 'removeFile', 'createUploadFile']) {
      const res = await gql(`mutation { ${name} { __typename } }`);
      expect(res.body.errors[0].extensions.code, name).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });
}
