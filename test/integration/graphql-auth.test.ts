/**
 * GraphQL reads are authorized as REST's: `find` for lists, `findOne` for one document, the
 * same users' JWTs and API tokens; a relation the caller may not `find` is null with Strapi 4's
 * FORBIDDEN error (no path), and filters through it are refused. In both shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

const ARTICLE = 'api::article.article';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

describe.each(SHAPES)('GraphQL authorization (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  let t: TestApp;
  let author: string;

  const gql = (query: string, key?: string | null) =>
    t.request('POST', '/graphql', { query }, { authorization: key ? `Bearer ${key}` : '' });

  async function tokenFor(type: 'read-only' | 'custom', permissions: string[] = []): Promise<string> {
    const name = `t-${type}-${permissions.length}-${Math.random()}`;
    return (await t.app.plugin(usersPermissionsPlugin).tokens.create({ name, type, permissions })).accessKey;
  }

  beforeAll(async () => {
    t = await startApp({ config: shapeConfig(shape) });
    author = (await t.app.documents('api::author.author').create({ data: { name: 'Ada' } })).documentId as string;
    await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'One', author } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets the Public role read what the blog grants it, and nothing else', async () => {
    const res = await gql(`{ ${q.list('articles', `title author ${q.docs('name')}`)} }`);
    expect(res.body.errors).toBeUndefined();
    expect(q.data(res.body.data)).toEqual({ articles: [{ title: 'One', author: { name: 'Ada' } }] });
    const users = await gql(`{ ${q.ids('usersPermissionsUsers')} ${q.ids('tags')} }`);
    expect(users.status).toBe(200);
    expect(users.body.errors).toEqual([FORBIDDEN]);
    // flat: `usersPermissionsUsers: [UsersPermissionsUser]!` is non-null, so its null nulls `data` (GraphQL's rule)
    expect(users.body.data === null ? null : q.data(users.body.data)).toEqual(
      shape === 'flat' ? null : { usersPermissionsUsers: null, tags: [] },
    );
  });

  it('answers a relation whose target the caller may not find with null and FORBIDDEN', async () => {
    const key = await tokenFor('custom', [`${ARTICLE}.find`]);
    const res = await gql(`{ ${q.list('articles', `title author ${q.docs('name')}`)} }`, key);
    expect(res.body.errors).toEqual([FORBIDDEN]);
    expect(q.data(res.body.data)).toEqual({ articles: [{ title: 'One', author: null }] });
    const single = await gql(`{ ${q.ids('article', `${q.id}: "x"`)} }`, key);
    expect(single.body.errors).toEqual([FORBIDDEN]);
  });

  it('refuses a filter through a relation the caller may not find', async () => {
    const key = await tokenFor('custom', [`${ARTICLE}.find`]);
    const res = await gql(`{ ${q.ids('articles', 'filters: { author: { name: { eq: "Ada" } } }')} }`, key);
    expect(res.body.data?.articles ?? null).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('lets read-only tokens read', async () => {
    const res = await gql(`{ ${q.list('authors', 'name')} }`, await tokenFor('read-only'));
    expect(res.body.errors).toBeUndefined();
    expect(q.data(res.body.data)).toEqual({ authors: [{ name: 'Ada' }] });
  });

  it("reads users (never their password) with a user's JWT when its role may", async () => {
    const reg = await t.request('POST', '/api/auth/local/register', {
      username: 'reader',
      email: 'reader@x.io',
      password: 'secret123',
    });
    expect(reg.status).toBe(200);
    const jwt = reg.body.jwt as string;
    const denied = await gql(`{ ${q.ids('usersPermissionsUsers')} }`, jwt);
    expect(denied.body.errors).toEqual([FORBIDDEN]);
    const full = await gql(`{ ${q.list('usersPermissionsUsers', `username email role ${q.docs('type')}`)} }`, t.token);
    expect(full.body.errors).toBeUndefined();
    expect(q.rows(full.body.data.usersPermissionsUsers)).toEqual([
      { username: 'reader', email: 'reader@x.io', role: { type: 'authenticated' } },
    ]);
    const secret = await gql(`{ ${q.list('usersPermissionsUsers', 'password')} }`, t.token);
    expect(secret.status).toBe(400);
  });
});
