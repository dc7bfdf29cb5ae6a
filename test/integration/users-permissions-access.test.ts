import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { SignJWT } from 'jose';
import { copyApp } from '../../testing.ts';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { BLOG, startApp } from '../helpers/app.ts';
import { usersPermissionsPlugin, type UsersPermissionsApi } from '../../plugins/users-permissions/index.ts';
import { fromPermissionsTree, type PermissionsTree } from '../../plugins/users-permissions/roles.ts';
import { ROLE_UID, USER_UID } from '../../plugins/users-permissions/schemas.ts';

let t: TestApp;
let api: UsersPermissionsApi;
/** every response body this file received: no password hash may be in any of them */
const seen: string[] = [];

const anon = { authorization: '' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const UNAUTHORIZED = {
  data: null,
  error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} },
};
const FORBIDDEN = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const ROLES = '/api/users-permissions/roles';

async function req(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<TestResponse> {
  const res = await t.request(method, path, body, headers);
  seen.push(res.text);
  return res;
}

interface RoleSummary {
  id: number;
  documentId: string;
  type: string;
  name: string;
  nb_users: number;
  updatedAt: string;
}
async function listRoles(): Promise<RoleSummary[]> {
  const res = await req('GET', ROLES);
  expect(res.status).toBe(200);
  return res.body.roles;
}
const roleOfType = async (type: string): Promise<RoleSummary> => (await listRoles()).find((r) => r.type === type)!;
async function treeOf(id: number): Promise<PermissionsTree> {
  const res = await req('GET', `${ROLES}/${id}`);
  expect(res.status).toBe(200);
  return res.body.role.permissions;
}
/** a copy of `tree` with `action` switched on or off */
function withGrant(tree: PermissionsTree, action: string, enabled: boolean): PermissionsTree {
  const copy = structuredClone(tree);
  const [type, controller, name] = [
    action.slice(0, action.indexOf('.')),
    ...action.slice(action.indexOf('.') + 1).split('.'),
  ];
  copy[type].controllers[controller][name] = { enabled, policy: '' };
  return copy;
}
const rolePermissions = async (id: number): Promise<string[]> =>
  ((await t.sql('up_roles').where({ id }).first())!.data.permissions as string[]).slice().sort();
const count = async (table: string): Promise<number> => Number((await t.sql(table).count({ n: '*' }).first())!.n);

let users = 0;
/** a confirmed user with a role, and a JWT for it (signed by the plugin, as login would) */
async function makeUser(
  roleType: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; documentId: string; jwt: string }> {
  const role = await roleOfType(roleType);
  users++;
  const user = await t.app.documents(USER_UID).create({
    data: {
      username: `user${users}`,
      email: `user${users}@example.com`,
      password: 'secret-password',
      confirmed: true,
      role: role.documentId,
      ...extra,
    },
  });
  const id = Number(user.id);
  return { id, documentId: String(user.documentId), jwt: await api.jwt().issue({ id }) };
}

let png: Buffer;
async function uploadImage(name: string): Promise<{ id: number }> {
  const fd = new FormData();
  fd.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  const res = await fetch(`${t.url}/api/upload`, { method: 'POST', body: fd, headers: bearer(t.token!) });
  const text = await res.text();
  seen.push(text);
  expect(res.status).toBe(201);
  return JSON.parse(text)[0];
}

beforeAll(async () => {
  // a private copy: uploads are written under the app folder
  t = await startApp({ appDir: await copyApp(BLOG) });
  api = t.app.plugin(usersPermissionsPlugin);
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await t?.close();
});

describe('private by default', () => {
  it('serves what the blog grants the Public role without credentials, and nothing else', async () => {
    const article = (await req('POST', '/api/articles', { data: { title: 'Public read' } })).body.data;
    const file = await uploadImage('public.png');
    expect((await req('GET', '/api/articles', undefined, anon)).status).toBe(200);
    const one = await req('GET', `/api/articles/${article.documentId}`, undefined, anon);
    expect(one.status).toBe(200);
    expect(one.body.data.title).toBe('Public read');
    expect((await req('GET', '/api/upload/files', undefined, anon)).status).toBe(200);
    expect((await req('GET', `/api/upload/files/${file.id}`, undefined, anon)).status).toBe(200);

    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/articles', { data: { title: 'Anonymous' } }],
      ['PUT', `/api/articles/${article.documentId}`, { data: { title: 'Anonymous' } }],
      ['DELETE', `/api/articles/${article.documentId}`, undefined],
      ['POST', `/api/articles/${article.documentId}/actions/unpublish`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await req(method, path, body, anon);
      expect([method, path, res.status, res.body]).toEqual([method, path, 401, UNAUTHORIZED]);
    }
    const rows = await t.sql('articles').where({ document_id: article.documentId });
    expect(rows.map((r) => r.data.title)).toEqual(['Public read', 'Public read']);
  });

  it('answers 401 UnauthorizedError without credentials on each route whose action the Public role lacks', async () => {
    const pub = (await t.app.plugin(usersPermissionsPlugin).roles.byType('public'))!;
    expect(pub.type).toBe('public');
    const saved = pub.permissions;
    await t.app.documents(ROLE_UID).update({ documentId: String(pub.documentId), data: { permissions: [] } });
    try {
      const guarded = t.app.server.routes().filter((r) => r.config?.action);
      expect(guarded.length).toBeGreaterThan(30);
      const before = {
        tags: await count('tags'),
        articles: await count('articles'),
        roles: await count('up_roles'),
        files: await count('files'),
      };
      for (const route of guarded) {
        const path = route.path.replace(/:documentId/g, 'abcdefghijklmnopqrstuvwx').replace(/:[A-Za-z]+/g, '1');
        const body =
          route.method === 'POST' || route.method === 'PUT'
            ? { data: { name: 'nope', title: 'nope' }, name: 'Nope' }
            : undefined;
        const res = await req(route.method, path, body, anon);
        expect({ route: `${route.method} ${route.path}`, status: res.status, body: res.body }).toEqual({
          route: `${route.method} ${route.path}`,
          status: 401,
          body: UNAUTHORIZED,
        });
      }
      expect({
        tags: await count('tags'),
        articles: await count('articles'),
        roles: await count('up_roles'),
        files: await count('files'),
      }).toEqual(before);
    } finally {
      await t.app.documents(ROLE_UID).update({ documentId: String(pub.documentId), data: { permissions: saved } });
    }
    expect((await req('GET', '/api/articles', undefined, anon)).status).toBe(200);
  });

  it('answers 401 for an Authorization header that is not a Bearer credential', async () => {
    for (const value of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not a token', 'Token abc']) {
      const res = await req('GET', '/api/articles', undefined, { authorization: value });
      expect([value, res.status, res.body]).toEqual([value, 401, UNAUTHORIZED]);
    }
  });
});

describe("users' JWTs", () => {
  it('forbids (403) what the role lacks; a grant/revocation via PUT /roles/:id applies to the next call', async () => {
    const user = await makeUser('authenticated');
    const role = await roleOfType('authenticated');
    const forbidden = await req('GET', '/api/tags', undefined, bearer(user.jwt));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(FORBIDDEN);

    const tree = await treeOf(role.id);
    expect(tree['api::tag'].controllers.tag.find).toEqual({ enabled: false, policy: '' });
    const granted = await req('PUT', `${ROLES}/${role.id}`, {
      permissions: withGrant(tree, 'api::tag.tag.find', true),
    });
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({ ok: true });
    expect(await rolePermissions(role.id)).toContain('api::tag.tag.find');
    expect((await req('GET', '/api/tags', undefined, bearer(user.jwt))).status).toBe(200);
    // only what was granted
    expect((await req('POST', '/api/tags', { data: { name: 'by-user' } }, bearer(user.jwt))).status).toBe(403);

    const revoked = await req('PUT', `${ROLES}/${role.id}`, { permissions: tree });
    expect(revoked.status).toBe(200);
    expect(await rolePermissions(role.id)).not.toContain('api::tag.tag.find');
    const again = await req('GET', '/api/tags', undefined, bearer(user.jwt));
    expect([again.status, again.body]).toEqual([403, FORBIDDEN]);
  });

  it('refuses (401) an expired JWT, a tampered one and one of a blocked user', async () => {
    const user = await makeUser('authenticated');
    const secret = (await t.sql('vellum_secrets').where({ name: 'jwt_secret' }).first())!.value as string;
    const key = new TextEncoder().encode(secret);
    const now = Math.floor(Date.now() / 1000);
    const sign = (exp: number, id = user.id) =>
      new SignJWT({ id })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now - 3600)
        .setExpirationTime(exp)
        .sign(key);

    // the same secret with a future expiry is accepted: the expired one fails for its expiry alone
    expect((await req('GET', '/api/users-permissions/roles', undefined, bearer(await sign(now + 600)))).status).toBe(
      403,
    );
    const expired = await req('GET', '/api/users-permissions/roles', undefined, bearer(await sign(now - 60)));
    expect([expired.status, expired.body]).toEqual([401, UNAUTHORIZED]);

    const [header, payload, signature] = user.jwt.split('.');
    const mid = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, mid) + (signature[mid] === 'A' ? 'B' : 'A') + signature.slice(mid + 1);
    const otherPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), id: user.id + 1 }),
    ).toString('base64url');
    const noneAlg = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    for (const [what, jwt] of [
      ['signature', `${header}.${payload}.${flipped}`],
      ['payload', `${header}.${otherPayload}.${signature}`],
      ['alg none', noneAlg],
    ]) {
      const res = await req('GET', '/api/articles', undefined, bearer(jwt));
      expect([what, res.status, res.body]).toEqual([what, 401, UNAUTHORIZED]);
    }

    const blocked = await makeUser('authenticated', { blocked: true });
    const res = await req('GET', '/api/articles', undefined, bearer(blocked.jwt));
    expect([res.status, res.body]).toEqual([401, UNAUTHORIZED]);
    // a user deleted since the JWT was issued
    await t.app.documents(USER_UID).delete({ documentId: user.documentId });
    expect((await req('GET', '/api/articles', undefined, bearer(user.jwt))).status).toBe(401);
  });
});

describe('API tokens', () => {
  it('lets a read-only token find and findOne, and forbids (403) every write', async () => {
    const tag = (await req('POST', '/api/tags', { data: { name: 'read-only-tag' } })).body.data;
    const { accessKey } = await api.tokens.create({ name: 'reader', type: 'read-only' });
    expect((await req('GET', '/api/tags', undefined, bearer(accessKey))).status).toBe(200);
    expect((await req('GET', `/api/tags/${tag.documentId}`, undefined, bearer(accessKey))).status).toBe(200);
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/tags', { data: { name: 'ro-new' } }],
      ['PUT', `/api/tags/${tag.documentId}`, { data: { name: 'ro-changed' } }],
      ['DELETE', `/api/tags/${tag.documentId}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await req(method, path, body, bearer(accessKey));
      expect([method, res.status, res.body]).toEqual([method, 403, FORBIDDEN]);
    }
    expect((await t.sql('tags').where({ document_id: tag.documentId }).first())!.data.name).toBe('read-only-tag');
    expect(await t.sql('tags').whereRaw("data->>'name' = 'ro-new'")).toEqual([]);
  });

  it('lets a custom token use exactly its listed actions', async () => {
    const { accessKey } = await api.tokens.create({
      name: 'tags only',
      type: 'custom',
      permissions: ['api::tag.tag.find'],
    });
    expect((await req('GET', '/api/tags', undefined, bearer(accessKey))).status).toBe(200);
    const articles = await req('GET', '/api/articles', undefined, bearer(accessKey));
    expect([articles.status, articles.body]).toEqual([403, FORBIDDEN]);
    expect((await req('POST', '/api/tags', { data: { name: 'custom-new' } }, bearer(accessKey))).status).toBe(403);
  });

  it('refuses (401) an expired token, a revoked token and a random key, and records lastUsedAt', async () => {
    const expiring = await api.tokens.create({ name: 'expiring', type: 'read-only', lifespan: 7 });
    expect(Date.parse(String(expiring.token.expiresAt))).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect((await req('GET', '/api/tags', undefined, bearer(expiring.accessKey))).status).toBe(200);
    await t.sql.raw(
      `UPDATE strapi_api_tokens SET data = jsonb_set(data, '{expiresAt}', to_jsonb(?::text)) WHERE document_id = ?`,
      [new Date(Date.now() - 1000).toISOString(), String(expiring.token.documentId)],
    );
    const expired = await req('GET', '/api/tags', undefined, bearer(expiring.accessKey));
    expect([expired.status, expired.body]).toEqual([401, UNAUTHORIZED]);

    const revocable = await api.tokens.create({ name: 'revocable', type: 'full-access' });
    const row = async () =>
      (await t.sql('strapi_api_tokens').where({ document_id: revocable.token.documentId }).first())!;
    expect((await row()).data.lastUsedAt ?? null).toBeNull();
    expect((await req('GET', '/api/tags', undefined, bearer(revocable.accessKey))).status).toBe(200);
    const lastUsed = Date.parse((await row()).data.lastUsedAt);
    expect(Math.abs(Date.now() - lastUsed)).toBeLessThan(60_000);
    expect(
      (await api.tokens.list()).find((tk) => tk.documentId === revocable.token.documentId)!.lastUsedAt,
    ).toBeTruthy();
    // only the HMAC of the key is stored, never the key
    expect(JSON.stringify((await row()).data)).not.toContain(revocable.accessKey);

    await api.tokens.revoke(String(revocable.token.name));
    const revoked = await req('GET', '/api/tags', undefined, bearer(revocable.accessKey));
    expect([revoked.status, revoked.body]).toEqual([401, UNAUTHORIZED]);

    const random = await req('GET', '/api/tags', undefined, bearer(randomBytes(128).toString('hex')));
    expect([random.status, random.body]).toEqual([401, UNAUTHORIZED]);
  });
});

describe('populating needs find on the target', () => {
  it('omits relations/media the caller may not find, at top level and in components and dynamic zones', async () => {
    const author = (await req('POST', '/api/authors', { data: { name: 'Populate author' } })).body.data;
    const tag = (await req('POST', '/api/tags', { data: { name: 'populate-tag' } })).body.data;
    const cover = await uploadImage('cover.png');
    const article = (
      await req('POST', '/api/articles', {
        data: {
          title: 'Populate me',
          author: author.documentId,
          tags: [tag.documentId],
          cover: cover.id,
          seo: { metaTitle: 'Seo', shareImage: cover.id },
          blocks: [
            { __component: 'shared.quote', title: 'Q', person: author.documentId },
            { __component: 'shared.media', file: cover.id },
          ],
        },
      })
    ).body.data;
    const query = [
      'populate[author]=true',
      'populate[tags]=true',
      'populate[cover]=true',
      'populate[seo][populate][shareImage]=true',
      'populate[blocks][on][shared.quote][populate][person]=true',
      'populate[blocks][on][shared.media][populate][file]=true',
    ].join('&');
    const path = `/api/articles/${article.documentId}?${query}`;

    const articlesOnly = await api.tokens.create({
      name: 'articles only',
      type: 'custom',
      permissions: ['api::article.article.findOne'],
    });
    const narrow = await req('GET', path, undefined, bearer(articlesOnly.accessKey));
    expect(narrow.status).toBe(200);
    for (const key of ['author', 'tags', 'cover']) expect(narrow.body.data).not.toHaveProperty(key);
    expect(narrow.body.data.seo.metaTitle).toBe('Seo');
    expect(narrow.body.data.seo).not.toHaveProperty('shareImage');
    const [quote, media] = narrow.body.data.blocks;
    expect(quote).toMatchObject({ __component: 'shared.quote', title: 'Q' });
    expect(quote).not.toHaveProperty('person');
    expect(media.__component).toBe('shared.media');
    expect(media).not.toHaveProperty('file');
    const star = await req(
      'GET',
      `/api/articles/${article.documentId}?populate=*`,
      undefined,
      bearer(articlesOnly.accessKey),
    );
    expect(star.status).toBe(200);
    for (const key of ['author', 'tags', 'cover', 'gallery']) expect(star.body.data).not.toHaveProperty(key);
    expect(star.body.data.seo.metaTitle).toBe('Seo');

    const everything = await api.tokens.create({
      name: 'articles and targets',
      type: 'custom',
      permissions: [
        'api::article.article.findOne',
        'api::author.author.find',
        'api::tag.tag.find',
        'plugin::upload.content-api.find',
      ],
    });
    const wide = await req('GET', path, undefined, bearer(everything.accessKey));
    expect(wide.status).toBe(200);
    expect(wide.body.data.author.documentId).toBe(author.documentId);
    expect(wide.body.data.tags.map((x: { documentId: string }) => x.documentId)).toEqual([tag.documentId]);
    expect(wide.body.data.cover.id).toBe(cover.id);
    expect(wide.body.data.seo.shareImage.id).toBe(cover.id);
    expect(wide.body.data.blocks[0].person.documentId).toBe(author.documentId);
    expect(wide.body.data.blocks[1].file.id).toBe(cover.id);

    // findOne alone on the list route is not enough, and find alone covers the list
    const listOnly = await api.tokens.create({
      name: 'article list',
      type: 'custom',
      permissions: ['api::article.article.find', 'api::tag.tag.find'],
    });
    const list = await req(
      'GET',
      `/api/articles?filters[documentId]=${article.documentId}&populate[author]=true&populate[tags]=true` +
        `&populate[cover]=true`,
      undefined,
      bearer(listOnly.accessKey),
    );
    expect(list.status).toBe(200);
    expect(list.body.data[0]).not.toHaveProperty('author');
    expect(list.body.data[0]).not.toHaveProperty('cover');
    expect(list.body.data[0].tags).toHaveLength(1);
    expect((await req('GET', path, undefined, bearer(listOnly.accessKey))).status).toBe(403);
  });
});

describe('filtering and sorting need find on the target too', () => {
  it('refuses filter/sort via a relation the caller may not read (400 naming it), allows it with find', async () => {
    const author = (await req('POST', '/api/authors', { data: { name: 'Hidden Ann' } })).body.data;
    await req('POST', '/api/articles', { data: { title: 'By Ann', author: author.documentId } });
    const narrow = await api.tokens.create({
      name: 'filter narrow',
      type: 'custom',
      permissions: ['api::article.article.find'],
    });
    // the relation's own path, as Strapi 5.54 reports a restricted relation
    const refused = [
      ['filters[author][name][$eq]=Hidden%20Ann', 'author', 'author', 'filters'],
      ['filters[$or][0][author][name][$eq]=x&filters[$or][1][title]=y', 'author', 'author', 'filters'],
      ['filters[blocks][person][name][$eq]=x', 'person', 'blocks.person', 'filters'],
      ['filters[cover][name][$eq]=x', 'cover', 'cover', 'filters'],
      ['sort=author.name:asc', 'author', 'author', 'sort'],
    ];
    for (const [query, key, path, param] of refused) {
      const res = await req('GET', `/api/articles?${query}`, undefined, bearer(narrow.accessKey));
      expect(res.status, query).toBe(400);
      const message = path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`;
      expect(res.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message,
        details: { key, path, source: 'query', param },
      });
    }
    // a populate the caller may not read is dropped with its own filters instead
    const dropped = await req(
      'GET',
      '/api/articles?populate[author][filters][name][$eq]=x',
      undefined,
      bearer(narrow.accessKey),
    );
    expect(dropped.status).toBe(200);
    const wide = await api.tokens.create({
      name: 'filter wide',
      type: 'custom',
      permissions: ['api::article.article.find', 'api::author.author.find'],
    });
    const ok = await req(
      'GET',
      '/api/articles?filters[author][name][$eq]=Hidden%20Ann&sort=author.name:asc',
      undefined,
      bearer(wide.accessKey),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.data.map((a: { title: string }) => a.title)).toEqual(['By Ann']);
  });
});

describe('private fields', () => {
  it("never shows an article's private attribute: lists, findOne, populate from the author, errors", async () => {
    const secret = 'PRIVATE-NOTE-4f1c';
    const author = (await req('POST', '/api/authors', { data: { name: 'Private author' } })).body.data;
    // the content API cannot write a private attribute: the document service can
    const doc = await t.app
      .documents('api::article.article')
      .create({ data: { title: 'Has notes', internalNotes: secret, author: author.documentId }, locale: 'en' });
    await t.app.documents('api::article.article').publish({ documentId: String(doc.documentId), locale: 'en' });
    const stored = await t.sql('articles').where({ document_id: doc.documentId });
    expect(stored.every((r) => r.data.internalNotes === secret)).toBe(true);

    const responses = [
      await req('GET', '/api/articles'),
      await req('GET', '/api/articles', undefined, anon),
      await req('GET', `/api/articles/${doc.documentId}`),
      await req('GET', `/api/articles/${doc.documentId}?status=draft`),
      await req('GET', `/api/articles?filters[documentId]=${doc.documentId}&fields[0]=title`),
      await req('GET', `/api/authors/${author.documentId}?populate[articles]=true`),
      await req('GET', `/api/authors/${author.documentId}?populate=*`, undefined, anon),
      await req('PUT', `/api/articles/${doc.documentId}`, { data: { summary: 'updated' } }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('internalNotes');
    }
    expect(responses[5].body.data.articles.map((a: { documentId: string }) => a.documentId)).toContain(doc.documentId);

    // filtering or sorting on it is refused without echoing anything stored
    const errors = [
      await req('GET', '/api/articles?filters[internalNotes][$eq]=PRIVATE-NOTE-4f1c'),
      await req('GET', '/api/articles?sort=internalNotes'),
      await req('GET', '/api/articles?fields[0]=internalNotes'),
      await req('PUT', `/api/articles/${doc.documentId}`, { data: { title: 5, internalNotes: 'x' } }),
    ];
    for (const res of errors) {
      expect(res.status).toBe(400);
      expect(res.text).not.toContain(secret);
    }
    expect(
      (await t.sql('articles').where({ document_id: doc.documentId })).every((r) => r.data.internalNotes === secret),
    ).toBe(true);
  });
});

describe('roles from config', () => {
  it('creates configured roles and grants at start, and applying the config again keeps manual grants', async () => {
    const c = await startApp({
      appDir: BLOG,
      config: {
        plugins: {
          'users-permissions': {
            config: {
              roles: {
                editor: { name: 'Editor', permissions: ['api::tag.tag.create'] },
                public: { permissions: ['api::tag.tag.create'] },
              },
            },
          },
        },
      },
    });
    try {
      const cApi = c.app.plugin(usersPermissionsPlugin);
      const roles = (await c.request('GET', ROLES)).body.roles as RoleSummary[];
      seen.push(JSON.stringify(roles));
      expect(roles.map((r) => r.type)).toEqual(['authenticated', 'public', 'editor']);
      const editor = roles.find((r) => r.type === 'editor')!;
      expect(editor.name).toBe('Editor');
      const tree = (await c.request('GET', `${ROLES}/${editor.id}`)).body.role.permissions as PermissionsTree;
      expect(fromPermissionsTree(tree)).toEqual(['api::tag.tag.create']);

      const created = await c.request('POST', '/api/tags', { data: { name: 'from-public' } }, anon);
      expect(created.status).toBe(201);

      const manual = withGrant(tree, 'api::tag.tag.find', true);
      expect((await c.request('PUT', `${ROLES}/${editor.id}`, { permissions: manual })).status).toBe(200);
      await cApi.roles.applyConfig(cApi.config.roles);
      const after = (await c.request('GET', `${ROLES}/${editor.id}`)).body.role.permissions as PermissionsTree;
      expect(fromPermissionsTree(after).sort()).toEqual(['api::tag.tag.create', 'api::tag.tag.find']);

      // what the config grants comes back at the next start even when revoked by hand
      expect((await c.request('PUT', `${ROLES}/${editor.id}`, { permissions: {} })).status).toBe(200);
      await cApi.roles.applyConfig(cApi.config.roles);
      const restored = (await c.request('GET', `${ROLES}/${editor.id}`)).body.role.permissions as PermissionsTree;
      expect(fromPermissionsTree(restored)).toEqual(['api::tag.tag.create']);
      expect((await c.request('GET', ROLES)).body.roles).toHaveLength(3);
    } finally {
      await c.close();
    }
  });
});

describe('roles API', () => {
  it("lists roles with Strapi's fields and each role's number of users", async () => {
    const before = await roleOfType('authenticated');
    await makeUser('authenticated');
    const roles = await listRoles();
    expect(roles.map((r) => r.type)).toEqual(expect.arrayContaining(['authenticated', 'public']));
    // in the order of their last write (the order is checked on a fresh app in users-permissions-strapi.test.ts)
    const byWrite = [...roles].sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.id - b.id);
    expect(roles.map((r) => r.id)).toEqual(byWrite.map((r) => r.id));
    for (const role of roles) {
      expect(Object.keys(role)).toEqual([
        'id',
        'documentId',
        'name',
        'description',
        'type',
        'createdAt',
        'updatedAt',
        'publishedAt',
        'nb_users',
      ]);
    }
    const auth = roles.find((r) => r.type === 'authenticated')!;
    expect(auth.nb_users).toBe(before.nb_users + 1);
    expect(auth).toMatchObject({ name: 'Authenticated', description: 'Default role given to authenticated user.' });
    expect(roles.find((r) => r.type === 'public')!.nb_users).toBe(0);
  });

  it('shows a role with every known action in its permissions tree, enabled when granted; 404 if missing', async () => {
    const pub = await roleOfType('public');
    const res = await req('GET', `${ROLES}/${pub.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['role']);
    const { permissions, ...rest } = res.body.role;
    expect(Object.keys(rest)).toEqual([
      'id',
      'documentId',
      'name',
      'description',
      'type',
      'createdAt',
      'updatedAt',
      'publishedAt',
    ]);
    expect(rest).toMatchObject({ id: pub.id, documentId: pub.documentId, name: 'Public', type: 'public' });
    const actions = new Set(t.app.server.routes().flatMap((r) => (r.config?.action ? [r.config.action] : [])));
    const inTree = Object.entries(permissions as PermissionsTree).flatMap(([type, { controllers }]) =>
      Object.entries(controllers).flatMap(([controller, names]) =>
        Object.keys(names).map((n) => `${type}.${controller}.${n}`),
      ),
    );
    for (const action of actions) expect(inTree).toContain(action);
    expect(permissions['api::article'].controllers.article.find).toEqual({ enabled: true, policy: '' });
    expect(permissions['api::article'].controllers.article.create).toEqual({ enabled: false, policy: '' });
    expect(permissions['plugin::upload'].controllers['content-api'].findOne.enabled).toBe(true);
    expect(permissions['plugin::users-permissions'].controllers.role.find.enabled).toBe(false);

    for (const id of ['999999', 'abc', '0', '1.5', '99999999999999999999']) {
      const missing = await req('GET', `${ROLES}/${id}`);
      expect([id, missing.status, missing.body.error?.name]).toEqual([id, 404, 'NotFoundError']);
    }
  });

  it('lists every known action, all disabled, at GET /users-permissions/permissions', async () => {
    const res = await req('GET', '/api/users-permissions/permissions');
    expect(res.status).toBe(200);
    const tree = res.body.permissions as PermissionsTree;
    expect(fromPermissionsTree(tree)).toEqual([]);
    expect(tree['plugin::users-permissions'].controllers.permissions.getPermissions).toEqual({
      enabled: false,
      policy: '',
    });
    expect(Object.keys(tree['plugin::users-permissions'].controllers.role).sort()).toEqual([
      'createRole',
      'deleteRole',
      'find',
      'findOne',
      'updateRole',
    ]);
    expect(Object.keys(tree['api::tag'].controllers.tag).sort()).toEqual([
      'create',
      'delete',
      'find',
      'findOne',
      'update',
    ]);
    expect(Object.keys(tree['api::global'].controllers.global).sort()).toEqual(['delete', 'find', 'update']);
  });

  it("creates a role from its name, with the type made from it and the tree's grants", async () => {
    const empty = (await req('GET', '/api/users-permissions/permissions')).body.permissions as PermissionsTree;
    const res = await req('POST', ROLES, {
      name: 'Content Editors',
      description: 'Write articles',
      permissions: withGrant(empty, 'api::article.article.create', true),
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const role = (await listRoles()).find((r) => r.type === 'content-editors')!;
    expect(role).toMatchObject({ name: 'Content Editors', description: 'Write articles', nb_users: 0 });
    expect(await rolePermissions(role.id)).toEqual(['api::article.article.create']);

    // the grant works for a user of that role
    const user = await makeUser('content-editors');
    expect((await req('POST', '/api/articles', { data: { title: 'By an editor' } }, bearer(user.jwt))).status).toBe(
      201,
    );
    expect((await req('GET', '/api/articles', undefined, bearer(user.jwt))).status).toBe(403);

    expect((await req('POST', ROLES, { name: 'Reviewers', type: 'review_team' })).body).toEqual({ ok: true });
    const reviewers = (await listRoles()).find((r) => r.type === 'review_team')!;
    expect(reviewers).toMatchObject({ name: 'Reviewers', description: '' });
    expect(await rolePermissions(reviewers.id)).toEqual([]);
  });

  it('refuses bad role bodies with 400 and creates nothing', async () => {
    const before = await count('up_roles');
    const cases: Array<[string, unknown, string]> = [
      ['missing name', { description: 'x' }, 'ValidationError'],
      ['empty name', { name: '  ' }, 'ValidationError'],
      ['name not a string', { name: 42 }, 'ValidationError'],
      ['name too short', { name: 'ab' }, 'ValidationError'],
      ['name without letters', { name: '!!!' }, 'ValidationError'],
      ['duplicate type (from the name)', { name: 'content editors!' }, 'ValidationError'],
      ['duplicate type (given)', { name: 'Someone', type: 'public' }, 'ValidationError'],
      ['bad type', { name: 'Typed', type: 'Has Spaces' }, 'ValidationError'],
      ['description not a string', { name: 'Described', description: ['x'] }, 'ValidationError'],
      ['permissions not an object', { name: 'Perms', permissions: ['api::tag.tag.find'] }, 'ValidationError'],
      [
        'malformed tree',
        { name: 'Perms', permissions: { 'api::tag': { controllers: { tag: { find: true } } } } },
        'ValidationError',
      ],
      ['tree without controllers', { name: 'Perms', permissions: { 'api::tag': {} } }, 'ValidationError'],
      [
        'unknown action',
        {
          name: 'Perms',
          permissions: {
            'api::tag': { controllers: { tag: { find: { enabled: true }, explode: { enabled: true } } } },
          },
        },
        'ValidationError',
      ],
      ['body an array', [{ name: 'Array' }], 'ValidationError'],
      ['body a string', '"Role"', 'ValidationError'],
      ['body not JSON', '{name:', 'ValidationError'],
    ];
    for (const [what, body, name] of cases) {
      const res = await req('POST', ROLES, body);
      expect([what, res.status, res.body?.data, res.body?.error?.name]).toEqual([what, 400, null, name]);
    }
    const unknown = await req('POST', ROLES, {
      name: 'Perms',
      permissions: {
        'api::tag': { controllers: { tag: { explode: { enabled: true } } } },
        'api::nothing': { controllers: { x: { y: { enabled: true } } } },
      },
    });
    expect(unknown.body.error.message).toContain('api::tag.tag.explode');
    expect(unknown.body.error.message).toContain('api::nothing.x.y');
    const taken = await req('POST', ROLES, { name: 'Content-Editors' });
    expect(taken.body.error.message).toBe('A role of type "content-editors" already exists');
    const missing = await req('POST', ROLES, {});
    expect(missing.body.error.details.errors[0].path).toEqual(['name']);
    expect(await count('up_roles')).toBe(before);
  });

  it("updates a role's name, description and grants (replacing them); refuses unknown actions atomically", async () => {
    expect((await req('POST', ROLES, { name: 'Updatable' })).status).toBe(200);
    const role = await roleOfType('updatable');
    const tree = await treeOf(role.id);
    const first = withGrant(withGrant(tree, 'api::tag.tag.find', true), 'api::tag.tag.create', true);
    expect(
      (
        await req('PUT', `${ROLES}/${role.id}`, {
          name: 'Updated',
          description: 'New text',
          permissions: first,
          users: [],
        })
      ).body,
    ).toEqual({ ok: true });
    let row = (await t.sql('up_roles').where({ id: role.id }).first())!.data;
    expect(row).toMatchObject({ name: 'Updated', description: 'New text', type: 'updatable' });
    expect(row.permissions.slice().sort()).toEqual(['api::tag.tag.create', 'api::tag.tag.find']);

    // a tree replaces the grants; a body without one keeps them; type never changes
    const second = withGrant(tree, 'api::author.author.find', true);
    expect((await req('PUT', `${ROLES}/${role.id}`, { permissions: second, type: 'renamed' })).status).toBe(200);
    expect(await rolePermissions(role.id)).toEqual(['api::author.author.find']);
    expect((await req('PUT', `${ROLES}/${role.id}`, { description: 'Only this' })).status).toBe(200);
    row = (await t.sql('up_roles').where({ id: role.id }).first())!.data;
    expect(row).toMatchObject({
      name: 'Updated',
      description: 'Only this',
      type: 'updatable',
      permissions: ['api::author.author.find'],
    });

    // a GET → PUT round trip is accepted as is
    const current = (await req('GET', `${ROLES}/${role.id}`)).body.role;
    expect((await req('PUT', `${ROLES}/${role.id}`, current)).status).toBe(200);
    expect(await rolePermissions(role.id)).toEqual(['api::author.author.find']);

    const snapshot = (await t.sql('up_roles').where({ id: role.id }).first())!.data;
    const bad: Array<[string, unknown]> = [
      [
        'unknown action',
        {
          name: 'Changed',
          permissions: withGrant(withGrant(tree, 'api::tag.tag.find', true), 'api::tag.tag.explode', true),
        },
      ],
      [
        'unknown type',
        { permissions: { 'api::ghost': { controllers: { ghost: { find: { enabled: true, policy: '' } } } } } },
      ],
      ['malformed action', { permissions: { 'api::tag': { controllers: { tag: { find: { enabled: 'yes' } } } } } }],
      ['name not a string', { name: ['x'] }],
      ['name too short', { name: 'x' }],
      ['body not an object', [1, 2]],
    ];
    for (const [what, body] of bad) {
      const res = await req('PUT', `${ROLES}/${role.id}`, body);
      expect([what, res.status, res.body.error?.name]).toEqual([what, 400, 'ValidationError']);
    }
    const named = await req('PUT', `${ROLES}/${role.id}`, bad[0][1]);
    expect(named.body.error.message).toContain('api::tag.tag.explode');
    expect(named.body.error.message).not.toContain('api::tag.tag.find');
    expect(named.body.error.details).toEqual({ actions: ['api::tag.tag.explode'] });
    expect((await t.sql('up_roles').where({ id: role.id }).first())!.data).toEqual(snapshot);

    const missing = await req('PUT', `${ROLES}/999999`, { name: 'Ghost role' });
    expect([missing.status, missing.body.error.name]).toEqual([404, 'NotFoundError']);
  });

  it('deletes a role, moving its users to the authenticated role; the built-in roles cannot be deleted', async () => {
    const empty = (await req('GET', '/api/users-permissions/permissions')).body.permissions as PermissionsTree;
    expect(
      (await req('POST', ROLES, { name: 'Temporary', permissions: withGrant(empty, 'api::tag.tag.create', true) }))
        .status,
    ).toBe(200);
    const temp = await roleOfType('temporary');
    const auth = await roleOfType('authenticated');
    const a = await makeUser('temporary');
    const b = await makeUser('temporary');
    expect((await roleOfType('temporary')).nb_users).toBe(2);
    expect((await req('POST', '/api/tags', { data: { name: 'by-temp' } }, bearer(a.jwt))).status).toBe(201);

    const res = await req('DELETE', `${ROLES}/${temp.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await t.sql('up_roles').where({ id: temp.id }).first()).toBeUndefined();
    const moved = await t.sql('up_users').whereIn('document_id', [a.documentId, b.documentId]);
    expect(moved.map((u) => u.data.role)).toEqual([auth.documentId, auth.documentId]);
    expect((await roleOfType('authenticated')).nb_users).toBe(auth.nb_users + 2);
    // the users now have the authenticated role's grants, at once
    expect((await req('POST', '/api/tags', { data: { name: 'by-moved' } }, bearer(a.jwt))).status).toBe(403);
    expect((await req('GET', '/api/users-permissions/permissions', undefined, bearer(a.jwt))).status).toBe(403);

    for (const type of ['public', 'authenticated']) {
      const role = await roleOfType(type);
      const refused = await req('DELETE', `${ROLES}/${role.id}`);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({
        status: 400,
        name: 'ApplicationError',
        message: 'Cannot delete public or authenticated roles',
        details: {},
      });
      expect(await t.sql('up_roles').where({ id: role.id }).first()).toBeDefined();
    }
    const missing = await req('DELETE', `${ROLES}/${temp.id}`);
    expect([missing.status, missing.body.error.name]).toEqual([404, 'NotFoundError']);
  });

  it('is guarded by its own actions: a user whose role grants role.find may list roles, nothing more', async () => {
    const auth = await roleOfType('authenticated');
    const user = await makeUser('authenticated');
    expect((await req('GET', ROLES, undefined, bearer(user.jwt))).status).toBe(403);
    const tree = await treeOf(auth.id);
    expect(
      (
        await req('PUT', `${ROLES}/${auth.id}`, {
          permissions: withGrant(tree, 'plugin::users-permissions.role.find', true),
        })
      ).status,
    ).toBe(200);
    const listed = await req('GET', ROLES, undefined, bearer(user.jwt));
    expect(listed.status).toBe(200);
    expect(listed.body.roles.length).toBeGreaterThanOrEqual(2);
    expect((await req('GET', `${ROLES}/${auth.id}`, undefined, bearer(user.jwt))).status).toBe(403);
    expect((await req('PUT', `${ROLES}/${auth.id}`, { permissions: {} }, bearer(user.jwt))).status).toBe(403);
    expect((await req('PUT', `${ROLES}/${auth.id}`, { permissions: tree })).status).toBe(200);
  });
});

describe('password hashes', () => {
  it('never appear in any response this file received', async () => {
    const hashes = (await t.sql('up_users').select('data')).map((r) => String(r.data.password));
    expect(hashes.length).toBeGreaterThanOrEqual(5);
    for (const hash of hashes) expect(hash).toMatch(/^\$2[aby]\$/);
    expect(seen.length).toBeGreaterThan(100);
    for (const text of seen) {
      for (const hash of hashes) expect(text).not.toContain(hash);
      expect(text).not.toContain('secret-password');
      expect(text).not.toMatch(/"password"/);
    }
  });
});

describe('secrets in production', () => {
  it('refuses to start without JWT_SECRET or API_TOKEN_SALT, and starts with both', async () => {
    await expect(startApp({ env: { NODE_ENV: 'production', API_TOKEN_SALT: 'salt' } })).rejects.toThrow(
      /JWT_SECRET must be set in production/,
    );
    await expect(startApp({ env: { NODE_ENV: 'production', JWT_SECRET: 'secret' } })).rejects.toThrow(
      /API_TOKEN_SALT must be set in production/,
    );
    const prod = await startApp({
      env: { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret', API_TOKEN_SALT: 'a-production-salt' },
    });
    try {
      const res = await prod.request('POST', '/api/tags', { data: { name: 'prod' } });
      expect(res.status).toBe(201);
      // nothing was generated: the configured values are used, so the database holds no secret
      const { rows } = await prod.sql.raw(`SELECT to_regclass('vellum_secrets') AS t`);
      expect(rows[0].t).toBeNull();
    } finally {
      await prod.close();
    }
  });
});
