import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing.ts';
import { testAdminUrl } from '../../testing/admin-url.ts';
import { startApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t?.close());

describe('the test kit', () => {
  it("signs a users-permissions user in: its JWT is the user's, with the role asked for", async () => {
    const user = await t.createUser({ username: 'kit-reader', data: {} });
    const me = await t.request('GET', '/api/users/me', undefined, { authorization: `Bearer ${user.jwt}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, username: 'kit-reader', email: 'kit-reader@example.test' });
    const role = await t.sql.raw(
      "SELECT r.data->>'type' AS type FROM up_users u JOIN up_roles r ON r.document_id = u.data->>'role' " +
        'WHERE u.id = ?',
      [user.id],
    );
    expect(role.rows).toEqual([{ type: 'authenticated' }]);

    // the blog's Public role reads articles; a user's role is what decides, not the token default
    const jwt = await t.userJwt({ role: 'public' });
    const asUser = { authorization: `Bearer ${jwt}` };
    expect((await t.request('GET', '/api/articles', undefined, asUser)).status).toBe(200);
    expect((await t.request('POST', '/api/tags', { data: { name: 'x' } }, asUser)).status).toBe(403);
  });

  it('refuses a role that does not exist', async () => {
    await expect(t.userJwt({ role: 'editor' })).rejects.toThrow(/no role of type "editor"/);
  });

  it('finds a database server: the one given, else DATABASE_URL, else says how to get one', async () => {
    expect(await testAdminUrl('postgres://given', { DATABASE_URL: 'postgres://env' })).toBe('postgres://given');
    expect(await testAdminUrl(undefined, { DATABASE_URL: 'postgres://env' })).toBe('postgres://env');
    // this suite's global setup provides its URL under its own key, not the kit's
    await expect(testAdminUrl(undefined, {})).rejects.toThrow(/vellum\/testing\/setup/);
  });
});
