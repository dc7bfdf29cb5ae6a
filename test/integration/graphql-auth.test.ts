/**
 * GraphQL reads are authorized as REST's: `find` for lists, `findOne` for one document, the
 * same users' JWTs and API tokens; a relation the caller may not `find` is null with Strapi 4's
 * FORBIDDEN error (no path), and filters through it are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

const ARTICLE = 'api::article.article';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

let t: TestApp;
let author: string;

const gql = (query: string, key?: string | null) =>
  t.request('POST', '/graphql', { query }, { authorization: key ? `Bearer ${key}` : '' });

async function tokenFor(type: 'read-only' | 'custom', permissions: string[] = []): Promise<string> {
  const name = `t-${type}-${permissions.length}-${Math.random()}`;
  return (await t.app.plugin(usersPermissionsPlugin).tokens.create({ name, type, permissions })).accessKey;
}

beforeAll(async () => {
  t = await startApp();
  author = (await t.app.documents('api::author.author').create({ data: { name: 'Ada' } })).documentId as string;
  await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'One', author } });
});
afterAll(async () => {
  await t?.close();
});

describe('GraphQL authorization', () => {
  it('lets the Public role read what the blog grants it, and nothing else', async () => {
    const res = await gql('{ articles { data { attributes { title author { data { attributes { name } } } } } } }');
    expect(res.body).toEqual({
      data: {
        articles: { data: [{ attributes: { title: 'One', author: { data: { attributes: { name: 'Ada' } } } } }] },
      },
    });
    const users = await gql('{ usersPermissionsUsers { data { id } } tags { data { id } } }');
    expect(users.status).toBe(200);
    expect(users.body).toEqual({ errors: [FORBIDDEN], data: { usersPermissionsUsers: null, tags: { data: [] } } });
  });

  it('answers a relation whose target the caller may not find with null and FORBIDDEN', async () => {
    const key = await tokenFor('custom', [`${ARTICLE}.find`]);
    const res = await gql('{ articles { data { attributes { title author { data { id } } } } } }', key);
    expect(res.body).toEqual({
      errors: [FORBIDDEN],
      data: { articles: { data: [{ attributes: { title: 'One', author: null } }] } },
    });
    const single = await gql('{ article(id: "x") { data { id } } }', key);
    expect(single.body.errors).toEqual([FORBIDDEN]);
  });

  it('refuses a filter through a relation the caller may not find', async () => {
    const key = await tokenFor('custom', [`${ARTICLE}.find`]);
    const res = await gql('{ articles(filters: { author: { name: { eq: "Ada" } } }) { data { id } } }', key);
    expect(res.body.data).toEqual({ articles: null });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('lets read-only tokens read', async () => {
    const res = await gql('{ authors { data { attributes { name } } } }', await tokenFor('read-only'));
    expect(res.body).toEqual({ data: { authors: { data: [{ attributes: { name: 'Ada' } }] } } });
  });

  it("reads users (never their password) with a user's JWT when its role may", async () => {
    const reg = await t.request('POST', '/api/auth/local/register', {
      username: 'reader',
      email: 'reader@x.io',
      password: 'secret123',
    });
    expect(reg.status).toBe(200);
    const jwt = reg.body.jwt as string;
    const denied = await gql('{ usersPermissionsUsers { data { id } } }', jwt);
    expect(denied.body.errors).toEqual([FORBIDDEN]);
    const full = await gql(
      '{ usersPermissionsUsers { data { id attributes { username email role { data { attributes { type } } } } } } }',
      t.token,
    );
    expect(full.body.errors).toBeUndefined();
    expect(full.body.data.usersPermissionsUsers.data[0].attributes).toEqual({
      username: 'reader',
      email: 'reader@x.io',
      role: { data: { attributes: { type: 'authenticated' } } },
    });
    const secret = await gql('{ usersPermissionsUsers { data { attributes { password } } } }', t.token);
    expect(secret.status).toBe(400);
  });
});
