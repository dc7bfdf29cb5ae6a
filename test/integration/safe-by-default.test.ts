import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createVellumApp, ConfigurationError } from '../../index.ts';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';
import { authorizeQuery } from '../../core/auth/query-access.ts';
import { OPEN_ACCESS } from '../../core/auth/open-api.ts';
import { resolveFilters } from '../../core/query/filters.ts';
import { FILE_UID } from '../../core/content-types/types.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { USER_UID } from '../../plugins/users-permissions/schemas.ts';
import type { Doc } from '../../core/documents/serialize.ts';

const NOTE = 'api::note.note';
const WRITER = 'api::writer.writer';

const writer = {
  kind: 'collectionType',
  collectionName: 'writers',
  info: { singularName: 'writer', pluralName: 'writers' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    hidden: { type: 'string', private: true },
    secret: { type: 'password' },
    notes: { type: 'relation', relation: 'oneToMany', target: NOTE, mappedBy: 'writer' },
  },
};
const note = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    memo: { type: 'string', private: true },
    pin: { type: 'password' },
    writer: { type: 'relation', relation: 'manyToOne', target: WRITER, inversedBy: 'notes' },
  },
};

/**
 * Routes the app adds in its own src/index.ts, without a permission action: what a GraphQL
 * endpoint would be. They answer who the request is, as the guard (or the open API) decided.
 */
const INDEX = `export default {
  register({ app }) {
    const who = (ctx) => {
      const auth = ctx.state.auth;
      ctx.body = {
        strategy: auth ? auth.strategy : null,
        username: auth && auth.credentials ? auth.credentials.username ?? null : null,
        mayFindNotes: auth ? auth.allows('api::note.note.find') : null,
      };
    };
    app.server.route({ method: 'GET', path: '/api/whoami', handler: who });
    app.server.route({ method: 'GET', path: '/api/open-whoami', handler: who, config: { auth: false } });
  },
};
`;

const fixture = (): Promise<string> => writeApp({ contentTypes: { note, writer }, files: { 'src/index.ts': INDEX } });
const quiet = pino({ level: 'silent' });
const upDisabled = { 'users-permissions': { enabled: false } };
const anon = { authorization: '' };

/** A confirmed Authenticated user, written through the document service. */
async function makeUser(t: TestApp, username: string, extra: Record<string, unknown> = {}): Promise<Doc> {
  const role = await t.app.plugin(usersPermissionsPlugin).roles.byType('authenticated');
  return t.app.documents(USER_UID).create({
    data: {
      username,
      email: `${username}@example.com`,
      password: 'secret-password',
      confirmed: true,
      role: role!.documentId,
      ...extra,
    },
  });
}

describe('the document service leaves private and password attributes out unless asked for raw rows', () => {
  let t: TestApp;
  let noteId: string;
  beforeAll(async () => {
    t = await startApp({ appDir: await fixture() });
    const w = await t.app.documents(WRITER).create({
      data: { name: 'Ann', hidden: 'writer-hidden', secret: 'writer-secret' },
    });
    const created = await t.app.documents(NOTE).create({
      data: { title: 'First', memo: 'note-memo', pin: 'note-pin', writer: w.documentId },
      populate: { writer: {} },
    });
    noteId = String(created.documentId);
    // a write answers as a read does
    expect(created).toMatchObject({ title: 'First', writer: { name: 'Ann' } });
    expect(created).not.toHaveProperty('memo');
    expect(created).not.toHaveProperty('pin');
    expect(created.writer).not.toHaveProperty('hidden');
  });
  afterAll(() => t?.close());

  it('a plugin-level read that does not mention redaction returns no private values', async () => {
    const [row] = await t.sql('notes').where({ document_id: noteId });
    expect(row.data).toMatchObject({ memo: 'note-memo' });
    expect(String(row.data.pin)).toMatch(/^\$2/);

    const docs = t.app.documents(NOTE);
    const reads = [
      ...(await docs.findMany({ populate: { writer: { populate: { notes: {} } } } })),
      await docs.findFirst({ populate: { writer: {} } }),
      await docs.findOne({ documentId: noteId, populate: { writer: {} } }),
      // naming them in `fields` does not reveal them either
      await docs.findOne({ documentId: noteId, fields: ['title', 'memo', 'pin'] }),
      ...(await t.app.documents(WRITER).findMany({ populate: { notes: {} } })),
    ];
    const text = JSON.stringify(reads);
    for (const secret of ['note-memo', 'writer-hidden', '$2', '"memo"', '"pin"', '"hidden"', '"secret"']) {
      expect(text).not.toContain(secret);
    }
    expect(reads[3]).toEqual({ id: reads[2]!.id, documentId: noteId, title: 'First' });
  });

  it('includes them with raw: true, at every level', async () => {
    const raw = await t.app.documents(NOTE).findOne({ documentId: noteId, populate: { writer: {} }, raw: true });
    expect(raw).toMatchObject({ title: 'First', memo: 'note-memo', writer: { name: 'Ann', hidden: 'writer-hidden' } });
    expect(String(raw!.pin)).toMatch(/^\$2/);
    expect(String((raw!.writer as { secret: unknown }).secret)).toMatch(/^\$2/);
    const picked = await t.app.documents(NOTE).findOne({ documentId: noteId, fields: ['memo'], raw: true });
    expect(picked).toEqual({ id: raw!.id, documentId: noteId, memo: 'note-memo' });
  });

  it('still filters by a private attribute for internal code (allowPrivate), without showing it', async () => {
    const filters = resolveFilters(t.app.registry, NOTE, { memo: 'note-memo' }, { allowPrivate: true });
    const found = await t.app.documents(NOTE).findMany({ filters });
    expect(found.map((d) => d.documentId)).toEqual([noteId]);
    expect(found[0]).not.toHaveProperty('memo');
    const none = resolveFilters(t.app.registry, NOTE, { memo: 'other' }, { allowPrivate: true });
    expect(await t.app.documents(NOTE).count({ filters: none })).toBe(0);
  });

  it("reads users without password hashes or tokens, unless raw; a deleted document's entries too", async () => {
    const user = await makeUser(t, 'hashed', { resetPasswordToken: 'reset-me' });
    expect(user).toMatchObject({ username: 'hashed' });
    const listed = JSON.stringify(await t.app.documents(USER_UID).findMany({ populate: { role: {} } }));
    expect(listed).toContain('hashed@example.com');
    for (const secret of ['$2', 'reset-me', '"password"', '"resetPasswordToken"', '"permissions"']) {
      expect(listed).not.toContain(secret);
    }
    const raw = await t.app.documents(USER_UID).findOne({ documentId: String(user.documentId), raw: true });
    expect(raw).toMatchObject({ resetPasswordToken: 'reset-me' });
    expect(String(raw!.password)).toMatch(/^\$2/);

    const deleted = await t.app.documents(USER_UID).delete({ documentId: String(user.documentId) });
    expect(deleted!.entries).toHaveLength(1);
    expect(deleted!.entries[0]).toMatchObject({ username: 'hashed' });
    expect(JSON.stringify(deleted)).not.toContain('reset-me');
    expect(deleted!.entries[0]).not.toHaveProperty('password');
  });

  it('still logs users in (the hash is read raw) and answers them without it', async () => {
    await makeUser(t, 'login');
    const login = (password: string) => t.request('POST', '/api/auth/local', { identifier: 'login', password }, anon);
    const ok = await login('secret-password');
    expect(ok.status).toBe(200);
    expect(ok.body.user).toMatchObject({ username: 'login' });
    expect(ok.text).not.toContain('$2');
    expect((await login('wrong-password')).status).toBe(400);
  });
});

describe('every request is authenticated, whatever route it hits', () => {
  let t: TestApp;
  let jwt: string;
  beforeAll(async () => {
    t = await startApp({ appDir: await fixture() });
    const user = await makeUser(t, 'reader');
    jwt = await t.app
      .plugin(usersPermissionsPlugin)
      .jwt()
      .issue({ id: Number(user.id) });
  });
  afterAll(() => t?.close());

  it('a route without an action sees ctx.state.auth (Public, a JWT, an API token); a bad credential: 401', async () => {
    const ask = (headers: Record<string, string>) => t.request('GET', '/api/whoami', undefined, headers);
    const nobody = await ask(anon);
    expect([nobody.status, nobody.body]).toEqual([200, { strategy: 'public', username: null, mayFindNotes: false }]);
    const user = await ask({ authorization: `Bearer ${jwt}` });
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ strategy: 'users-permissions', username: 'reader', mayFindNotes: false });
    const token = await ask({});
    expect([token.status, token.body]).toEqual([200, { strategy: 'api-token', username: null, mayFindNotes: true }]);
    for (const bad of ['Bearer 0123abcd', `Bearer ${jwt}x`, 'Basic dXNlcjpwYXNz']) {
      const res = await ask({ authorization: bad });
      expect([bad, res.status, res.body.error?.name]).toEqual([bad, 401, 'UnauthorizedError']);
    }
  });

  it('an auth: false route is never refused, and still sees a valid credential', async () => {
    const ask = (headers: Record<string, string>) => t.request('GET', '/api/open-whoami', undefined, headers);
    expect((await ask(anon)).body).toEqual({ strategy: 'public', username: null, mayFindNotes: false });
    const user = await ask({ authorization: `Bearer ${jwt}` });
    expect(user.body).toMatchObject({ strategy: 'users-permissions', username: 'reader' });
    expect((await ask({})).body).toMatchObject({ strategy: 'api-token', mayFindNotes: true });
    // a credential that names nobody: no grant at all, and no 401
    const bad = await ask({ authorization: 'Bearer 0123abcd' });
    expect([bad.status, bad.body]).toEqual([200, { strategy: 'public', username: null, mayFindNotes: false }]);
    for (const authorization of ['', 'Bearer 0123abcd']) {
      const health = await t.request('GET', '/_health', undefined, { authorization });
      expect([health.status, health.body]).toEqual([200, { status: 'ok', database: 'up' }]);
    }
  });

  it('refuses a query that reaches authorizeQuery without auth state, rather than letting it through', () => {
    const query = { populate: { writer: {} } };
    expect(() => authorizeQuery(t.app.registry, NOTE, query, undefined)).toThrow(ConfigurationError);
    expect(() => authorizeQuery(t.app.registry, NOTE, query, undefined)).toThrow(/without auth state/);
    // with a state that allows it, the query passes as it is
    expect(authorizeQuery(t.app.registry, NOTE, query, OPEN_ACCESS)).toEqual(query);
    const nobody = { strategy: 'public' as const, credentials: null, allows: () => false };
    expect(authorizeQuery(t.app.registry, NOTE, query, nobody)).toEqual({ populate: {} });
  });
});

describe('lists are bounded by maxLimit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp({ appDir: await fixture(), config: { api: { rest: { defaultLimit: 2, maxLimit: 3 } } } });
    for (let i = 1; i <= 5; i++) {
      await t.app.documents(FILE_UID).create({
        data: {
          name: `f${i}.txt`,
          hash: `f_${i}`,
          ext: '.txt',
          mime: 'text/plain',
          size: 1,
          url: `/uploads/f_${i}.txt`,
          provider: 'local',
        },
      });
    }
  });
  afterAll(() => t?.close());

  it('the upload list answers at most maxLimit files, however it is asked', async () => {
    const names = async (query: string): Promise<string[]> => {
      const res = await t.request('GET', `/api/upload/files${query}`);
      expect(res.status).toBe(200);
      return (res.body as Array<{ name: string }>).map((f) => f.name);
    };
    // Strapi lists every file when no pagination is asked for: here, maxLimit of them
    expect(await names('?sort=id:asc')).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(await names('?sort=id:asc&pagination[pageSize]=100')).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(await names('?sort=id:asc&pagination[limit]=-1')).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(await names('?sort=id:asc&pagination[page]=2')).toEqual(['f3.txt', 'f4.txt']);
    expect(await names('?sort=id:desc&pagination[start]=3&pagination[limit]=3')).toEqual(['f2.txt', 'f1.txt']);
  });

  it('the upload list goes through authorization: without find, the Public role gets 401', async () => {
    const res = await t.request('GET', '/api/upload/files', undefined, anon);
    expect(res.status).toBe(401);
  });

  it('the users and roles lists are bounded too', async () => {
    for (let i = 1; i <= 4; i++) await makeUser(t, `user${i}`);
    expect((await t.request('GET', '/api/users')).body).toHaveLength(3);
    for (const type of ['editor', 'reviewer']) {
      const role = { name: `Role ${type}`, type, permissions: {} };
      expect((await t.request('POST', '/api/users-permissions/roles', role)).status).toBe(200);
    }
    expect(Number((await t.sql('up_roles').count({ n: '*' }).first())!.n)).toBe(4);
    expect((await t.request('GET', '/api/users-permissions/roles')).body.roles).toHaveLength(3);
  });
});

describe('without users-permissions', () => {
  it('refuses to start unless the app opts in to an open API, saying how', async () => {
    const appDir = await fixture();
    const attempt = createVellumApp({ appDir, logger: quiet, env: {}, config: { plugins: upDisabled } });
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow(/openApi: true.*VELLUM_OPEN_API=true/s);
  });

  it('with server.openApi, serves every route to anyone, and authorizes every query as allowed', async () => {
    const t = await startApp({ appDir: await fixture(), config: { plugins: upDisabled, server: { openApi: true } } });
    try {
      expect(t.token).toBeNull();
      const w = await t.request('POST', '/api/writers', { data: { name: 'Open', hidden: 'open-hidden' } });
      expect(w.status).toBe(201);
      const data = { title: 'Open note', memo: 'open-memo', writer: w.body.data.documentId };
      const n = await t.request('POST', '/api/notes', { data });
      expect(n.status).toBe(201);
      const list = await t.request('GET', '/api/notes?populate=writer&filters[writer][name][$eq]=Open');
      expect(list.status).toBe(200);
      expect(list.body.data).toMatchObject([{ title: 'Open note', writer: { name: 'Open' } }]);
      expect(list.text).not.toContain('open-memo');
      expect(list.text).not.toContain('open-hidden');
      const who = await t.request('GET', '/api/whoami', undefined, { authorization: 'Bearer anything' });
      expect([who.status, who.body]).toEqual([200, { strategy: 'open', username: null, mayFindNotes: true }]);
    } finally {
      await t.close();
    }
  });

  it('opts in with VELLUM_OPEN_API=true too', async () => {
    const appDir = await fixture();
    const t = await startApp({ appDir, env: { VELLUM_OPEN_API: 'true' }, config: { plugins: upDisabled } });
    try {
      expect((await t.request('GET', '/api/notes')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
