/**
 * The response cache on one app: repeated reads are hits, and a write through any path is
 * visible in the very next read (each test first proves the old answer was served from the
 * cache, so what it checks is invalidation, not a miss).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp, type TestResponse } from '../helpers/app.ts';

/** the test helpers start apps without the cache */
const ON = { RESPONSE_CACHE: 'true' };

const ARTICLE = 'api::article.article';
const ROLES = '/api/users-permissions/roles';
const PUBLIC = { authorization: '' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

let t: TestApp;
let ada: string;

/** GET twice: the second answer must come from the cache; returns it. */
async function cached(path: string, headers?: Record<string, string>): Promise<TestResponse> {
  const first = await t.request('GET', path, undefined, headers);
  expect(first.status, first.text).toBe(200);
  const second = await t.request('GET', path, undefined, headers);
  expect(second.headers.get('x-cache'), path).toBe('hit');
  expect(second.text).toBe(first.text);
  return second;
}

const titles = (res: TestResponse): string[] => res.body.data.map((d: { title: string }) => d.title).sort();

beforeAll(async () => {
  t = await startApp({ env: ON });
  ada = (await t.request('POST', '/api/authors', { data: { name: 'Ada' } })).body.data.documentId;
  await t.request('POST', '/api/articles', { data: { title: 'One', author: ada, internalNotes: 'secret' } });
});
afterAll(async () => {
  await t?.close();
});

describe('response cache: REST', () => {
  it('serves a repeated read from memory, with a strong ETag, and 304 for If-None-Match', async () => {
    const hit = await cached('/api/articles?sort=title');
    const etag = hit.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.request('GET', '/api/articles?sort=title', undefined, { 'if-none-match': etag });
    expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
    // a hit and a 304 run no statement at all (the Public role's grants are kept in memory)
    await cached('/api/articles?sort=title', PUBLIC);
    t.queries.length = 0;
    const publicHit = await t.request('GET', '/api/articles?sort=title', undefined, PUBLIC);
    const public304 = await t.request('GET', '/api/articles?sort=title', undefined, {
      ...PUBLIC,
      'if-none-match': publicHit.headers.get('etag')!,
    });
    expect([publicHit.headers.get('x-cache'), public304.status, t.queries]).toEqual(['hit', 304, []]);
    const other = await t.request('GET', '/api/articles?sort=title', undefined, { 'if-none-match': '"nope"' });
    expect([other.status, other.headers.get('x-cache')]).toEqual([200, 'hit']);
    // a write changes the ETag: the old one is not answered 304 any more
    await t.request('POST', '/api/articles', { data: { title: 'Etag' } });
    const after = await t.request('GET', '/api/articles?sort=title', undefined, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(titles(after)).toContain('Etag');
  });

  it('shows a REST create, update, publish, unpublish and delete in the very next read', async () => {
    const path = '/api/articles?sort=title&pagination[pageSize]=100';
    await cached(path);
    const created = await t.request('POST', '/api/articles', { data: { title: 'Fresh' } });
    expect(titles(await t.request('GET', path))).toContain('Fresh');
    const id = created.body.data.documentId;

    await cached(path);
    await t.request('PUT', `/api/articles/${id}`, { data: { title: 'Fresher' } });
    expect(titles(await t.request('GET', path))).toContain('Fresher');

    const drafts = `${path}&status=draft`;
    await t.request('PUT', `/api/articles/${id}`, { data: { title: 'Drafted' } }, {});
    await cached(path);
    await cached(drafts);
    const unpublished = await t.request('POST', `/api/articles/${id}/actions/unpublish`);
    expect(unpublished.status, unpublished.text).toBe(200);
    expect(titles(await t.request('GET', path))).not.toContain('Drafted');
    await cached(path);
    expect((await t.request('POST', `/api/articles/${id}/actions/publish`)).status).toBe(200);
    expect(titles(await t.request('GET', path))).toContain('Drafted');

    await cached(`/api/articles/${id}`);
    expect((await t.request('DELETE', `/api/articles/${id}`)).status).toBe(204);
    expect((await t.request('GET', `/api/articles/${id}`)).status).toBe(404);
    expect(titles(await t.request('GET', path))).not.toContain('Drafted');
  });

  it("keeps a document's answer while other documents of its type are written, shows its own writes", async () => {
    const make = async (title: string): Promise<string> =>
      (await t.request('POST', '/api/articles', { data: { title, author: ada } })).body.data.documentId;
    const x = await make('Kept');
    const y = await make('Other');
    const one = `/api/articles/${x}`;
    const withAuthor = `/api/articles/${x}?populate=author`;
    const withCover = `/api/articles/${x}?populate[0]=cover&populate[1]=seo`;
    const draft = `/api/articles/${x}?status=draft`;
    const list = '/api/articles?sort=title&pagination[pageSize]=100';
    const cacheOf = async (path: string): Promise<string | null> =>
      (await t.request('GET', path)).headers.get('x-cache');
    for (const path of [one, withAuthor, withCover, draft, list]) await cached(path);
    // another document of the type, through REST, the document service, unpublish and delete: the
    // list shows each write, the document's answers stay in memory
    expect((await t.request('PUT', `/api/articles/${y}`, { data: { title: 'Other too' } })).status).toBe(200);
    expect(titles(await t.request('GET', list))).toContain('Other too');
    await t.app.documents(ARTICLE).update({ documentId: y, data: { title: 'Other three' } });
    expect((await t.request('POST', `/api/articles/${y}/actions/unpublish`)).status).toBe(200);
    expect((await t.request('DELETE', `/api/articles/${y}`)).status).toBe(204);
    expect(await cacheOf(list)).toBe('miss');
    // its answers through a relation too: writes of other documents that change what a relation
    // shows touch this document or the relation's type (response-cache-relations.test.ts)
    const kept = [await cacheOf(one), await cacheOf(withCover), await cacheOf(draft), await cacheOf(withAuthor)];
    expect(kept).toEqual(['hit', 'hit', 'hit', 'hit']);
    // its own writes show in its next read, whatever the path
    await t.request('PUT', one, { data: { title: 'Kept 2' } });
    expect((await t.request('GET', one)).body.data.title).toBe('Kept 2');
    await cached(draft);
    await t.app.documents(ARTICLE).update({ documentId: x, data: { title: 'Kept 3' } });
    expect((await t.request('GET', draft)).body.data.title).toBe('Kept 3');
    await cached(one);
    expect((await t.request('POST', `${one}/actions/unpublish`)).status).toBe(200);
    expect((await t.request('GET', one)).status).toBe(404);
    expect((await t.request('POST', `${one}/actions/publish`)).status).toBe(200);
    // and a write of a type it populates
    await cached(withAuthor);
    await t.request('PUT', `/api/authors/${ada}`, { data: { name: 'Ada B.' } });
    const populated = await t.request('GET', withAuthor);
    expect([populated.headers.get('x-cache'), populated.body.data.author.name]).toEqual(['miss', 'Ada B.']);
    await t.request('PUT', `/api/authors/${ada}`, { data: { name: 'Ada' } });
    expect((await t.request('DELETE', one)).status).toBe(204);
  });

  it('stops keeping an answer that goes stale unread while its type is written fast, and keeps it later', async () => {
    const list = '/api/tags?sort=name:desc&pagination[pageSize]=3';
    const cacheOf = async (): Promise<[string | null, string]> => {
      const res = await t.request('GET', list);
      expect(res.status).toBe(200);
      return [res.headers.get('x-cache'), res.body.data[0].name];
    };
    await t.request('POST', '/api/tags', { data: { name: 'zz cool' } });
    expect(await cacheOf()).toEqual(['miss', 'zz cool']);
    // sixty writes at once: the tag type changes far more than twenty times a second, and the
    // answer kept above went stale before anyone read it
    const writes = Array.from({ length: 60 }, (_, i) => `zz hot ${String(i).padStart(2, '0')}`);
    const created = await Promise.all(writes.map((name) => t.request('POST', '/api/tags', { data: { name } })));
    expect(created.map((r) => r.status)).toEqual(writes.map(() => 201));
    // not kept (no hash, no memory), and every answer is the database's
    expect(await cacheOf()).toEqual(['bypass', 'zz hot 59']);
    expect(await cacheOf()).toEqual(['bypass', 'zz hot 59']);
    // once the writes stop, the type cools down (about a second) and the answer is kept again
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await cacheOf()).toEqual(['miss', 'zz hot 59']);
    expect(await cacheOf()).toEqual(['hit', 'zz hot 59']);
    // a read that was served before it went stale is kept again at once, hot or not
    await t.request('POST', '/api/tags', { data: { name: 'zz hot 60' } });
    expect(await cacheOf()).toEqual(['miss', 'zz hot 60']);
    expect(await cacheOf()).toEqual(['hit', 'zz hot 60']);
  });

  it("shows a document's relation changed by another document's write (an inverse side) in its next read", async () => {
    const [a1, a2] = await Promise.all(
      ['First', 'Second'].map(
        async (name) => (await t.request('POST', '/api/authors', { data: { name } })).body.data.documentId as string,
      ),
    );
    const x = (await t.request('POST', '/api/articles', { data: { title: 'Moved', author: a1 } })).body.data.documentId;
    const path = `/api/authors/${a1}?populate=articles`;
    expect((await cached(path)).body.data.articles.map((a: { documentId: string }) => a.documentId)).toEqual([x]);
    // a2 takes the article: a1's row is not written, the article's row is (its owning side)
    expect((await t.request('PUT', `/api/authors/${a2}`, { data: { articles: [x] } })).status).toBe(200);
    expect((await t.request('GET', path)).body.data.articles).toEqual([]);
    await t.request('DELETE', `/api/articles/${x}`);
  });

  it("shows a write of the app's own code (the document service) in the very next read", async () => {
    const path = '/api/articles?filters[title][$startsWith]=Code';
    expect((await cached(path)).body.data).toEqual([]);
    await t.app.documents(ARTICLE).create({ data: { title: 'Code one' }, status: 'published' });
    expect(titles(await t.request('GET', path))).toEqual(['Code one']);
    await cached(path);
    await t.app.strapi.documents(ARTICLE).create({ data: { title: 'Code two' }, status: 'published' });
    expect(titles(await t.request('GET', path))).toEqual(['Code one', 'Code two']);
  });

  it('invalidates a read by a write to a type it populates, or filters or sorts through', async () => {
    const populated = '/api/articles?populate=author&sort=title';
    const filtered = '/api/articles?filters[author][name][$eq]=Ada Lovelace';
    const sorted = '/api/articles?sort=author.name&fields[0]=title';
    await cached(populated);
    expect((await cached(filtered)).body.data).toEqual([]);
    await cached(sorted);
    const beforeSort = await t.request('GET', sorted);
    await t.request('PUT', `/api/authors/${ada}`, { data: { name: 'Ada Lovelace' } });
    const after = await t.request('GET', populated);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body.data.find((a: { title: string }) => a.title === 'One').author.name).toBe('Ada Lovelace');
    expect(titles(await t.request('GET', filtered))).toEqual(['One']);
    expect((await t.request('GET', sorted)).headers.get('x-cache')).toBe('miss');
    expect(beforeSort.headers.get('x-cache')).toBe('hit');
  });

  it('never gives an answer to a caller with another permission set', async () => {
    const api = t.app.plugin(usersPermissionsPlugin);
    const narrow = await api.tokens.create({ name: 'narrow', type: 'custom', permissions: [`${ARTICLE}.find`] });
    const path = '/api/articles?populate=author&sort=title&fields[0]=title';
    const one = (res: TestResponse) => res.body.data.find((a: { title: string }) => a.title === 'One');
    const full = await cached(path);
    expect(one(full).author.documentId).toBe(ada);
    const onlyArticles = await t.request('GET', path, undefined, bearer(narrow.accessKey));
    expect(onlyArticles.headers.get('x-cache')).toBe('miss');
    expect(one(onlyArticles)).not.toHaveProperty('author');
    expect(onlyArticles.text).not.toContain('secret');
    expect(full.text).not.toContain('secret');
    // the public role's own entry, with its own grants
    const pub = await t.request('GET', path, undefined, PUBLIC);
    expect(pub.headers.get('x-cache')).toBe('miss');
  });

  it('applies a role losing `find` to the next read (401 for the public role)', async () => {
    const roles = (await t.request('GET', ROLES)).body.roles as Array<{ id: number; type: string }>;
    const pub = roles.find((r) => r.type === 'public')!;
    const tree = (await t.request('GET', `${ROLES}/${pub.id}`)).body.role.permissions;
    await cached('/api/tags', PUBLIC);
    const without = structuredClone(tree);
    without['api::tag'].controllers.tag.find = { enabled: false, policy: '' };
    expect((await t.request('PUT', `${ROLES}/${pub.id}`, { permissions: without })).status).toBe(200);
    expect((await t.request('GET', '/api/tags', undefined, PUBLIC)).status).toBe(401);
    expect((await t.request('PUT', `${ROLES}/${pub.id}`, { permissions: tree })).status).toBe(200);
    expect((await t.request('GET', '/api/tags', undefined, PUBLIC)).status).toBe(200);
  });

  it('looks a token up once: its next requests read no token row, until a write of tokens', async () => {
    const api = t.app.plugin(usersPermissionsPlugin);
    const reader = await api.tokens.create({ name: 'looked-up-once', type: 'read-only' });
    const lookups = (): number => t.queries.filter((q) => /^SELECT .* from "strapi_api_tokens"/is.test(q)).length;
    const get = async (): Promise<void> => {
      // (authentication comes before the response cache: a cached answer still needs the token)
      expect((await t.request('GET', '/api/authors', undefined, bearer(reader.accessKey))).status).toBe(200);
    };
    // the first use writes the token's lastUsedAt, a write of tokens: looked up again after it
    await get();
    await get();
    t.queries.length = 0;
    for (let i = 0; i < 3; i++) await get();
    expect(lookups()).toBe(0);
    // any write of a token (here another one's) makes the next request look it up again
    await api.tokens.create({ name: 'another', type: 'read-only' });
    t.queries.length = 0;
    await get();
    expect(lookups()).toBe(1);
  });

  it('applies a token revoked, deleted or changed to the next read', async () => {
    const api = t.app.plugin(usersPermissionsPlugin);
    const revocable = await api.tokens.create({ name: 'revocable', type: 'read-only' });
    await cached('/api/tags', bearer(revocable.accessKey));
    await api.tokens.revoke(String(revocable.token.name));
    expect((await t.request('GET', '/api/tags', undefined, bearer(revocable.accessKey))).status).toBe(401);

    const deletable = await api.tokens.create({ name: 'deletable', type: 'read-only' });
    await cached('/api/tags', bearer(deletable.accessKey));
    const del = await t.app.documents('admin::api-token').delete({ documentId: String(deletable.token.documentId) });
    expect(del).toBeTruthy();
    expect((await t.request('GET', '/api/tags', undefined, bearer(deletable.accessKey))).status).toBe(401);

    const changing = await api.tokens.create({ name: 'changing', type: 'custom', permissions: ['api::tag.tag.find'] });
    await cached('/api/tags', bearer(changing.accessKey));
    await t.app
      .documents('admin::api-token')
      .update({ documentId: String(changing.token.documentId), data: { permissions: ['api::author.author.find'] } });
    expect((await t.request('GET', '/api/tags', undefined, bearer(changing.accessKey))).status).toBe(403);
  });

  it("caches users-permissions' user lists by permissions, and shows a new user or a role change next", async () => {
    const path = '/api/users?populate=role&sort=id';
    await cached(path);
    const created = await t.createUser({ username: 'cached-reader', email: 'reader@example.com' });
    const list = await t.request('GET', path);
    const mine = list.body.find((u: { username: string }) => u.username === 'cached-reader');
    expect(mine.role.type).toBe('authenticated');
    await cached(path);
    const roles = (await t.request('GET', ROLES)).body.roles as Array<{ id: number; type: string }>;
    const pub = roles.find((r) => r.type === 'public')!;
    const moved = await t.request('PUT', `/api/users/${created.id}`, { role: pub.id });
    expect(moved.status, moved.text).toBe(200);
    const after = (await t.request('GET', path)).body.find((u: { username: string }) => u.username === 'cached-reader');
    expect(after.role.type).toBe('public');
  });

  it('never keeps an error nor an answer that depends on who the caller is', async () => {
    const bad = await t.request('GET', '/api/articles?sort=nope');
    expect(bad.status).toBe(400);
    const again = await t.request('GET', '/api/articles?sort=nope');
    expect([again.status, again.headers.get('x-cache')]).toEqual([400, 'bypass']);
    // never stale, so `no-cache` (which fetch sends with If-None-Match) is served from it too
    await cached('/api/tags');
    const noCache = await t.request('GET', '/api/tags', undefined, { 'cache-control': 'no-cache' });
    expect(noCache.headers.get('x-cache')).toBe('hit');
    // the caller's identity, not its permissions: never cached
    const jwt = await t.userJwt();
    const me = await t.request('GET', '/api/users/me', undefined, bearer(jwt));
    const me2 = await t.request('GET', '/api/users/me', undefined, bearer(jwt));
    expect(me.status).toBe(200);
    expect(me2.headers.get('x-cache')).not.toBe('hit');
  });
});

describe('response cache: GraphQL', () => {
  const gql = (query: string, headers?: Record<string, string>) => t.request('POST', '/graphql', { query }, headers);
  const LIST = '{ tags(sort: "name", pagination: { limit: 100 }) { data { attributes { name } } } }';
  const listTitles = (res: TestResponse): string[] =>
    res.body.data.tags.data.map((a: { attributes: { name: string } }) => a.attributes.name);

  it('serves a repeated query from memory and shows a mutation in the next one', async () => {
    const first = await gql(LIST);
    expect(first.status, first.text).toBe(200);
    const second = await gql(LIST);
    expect([second.headers.get('x-cache'), second.text]).toEqual(['hit', first.text]);
    const created = await gql('mutation { createTag(data: { name: "By GraphQL" }) { data { id } } }');
    expect(created.body.errors, created.text).toBeUndefined();
    expect(created.headers.get('x-cache')).toBe('bypass');
    const after = await gql(LIST);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(listTitles(after)).toContain('By GraphQL');
  });

  it('caches GET queries too, and a REST write to a populated type shows in the next one', async () => {
    const author = 'author { data { attributes { name } } }';
    const query = `{ articles(filters: { title: { eq: "One" } }) { data { attributes { ${author} } } } }`;
    const path = `/graphql?query=${encodeURIComponent(query)}`;
    await cached(path);
    await t.request('PUT', `/api/authors/${ada}`, { data: { name: 'Countess' } });
    const after = await t.request('GET', path);
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(after.body.data.articles.data[0].attributes.author.data.attributes.name).toBe('Countess');
  });

  it("never caches what depends on the caller's identity, nor an answer with errors", async () => {
    const jwt = await t.userJwt();
    for (let i = 0; i < 2; i++) {
      const me = await gql('{ me { username } }', bearer(jwt));
      expect(me.body.data.me.username, me.text).toBeTruthy();
      expect(me.headers.get('x-cache')).toBe('bypass');
    }
    const narrow = await t.app.plugin(usersPermissionsPlugin).tokens.create({
      name: 'gql narrow',
      type: 'custom',
      permissions: [`${ARTICLE}.find`],
    });
    const withAuthor = '{ articles { data { attributes { title author { data { id } } } } } }';
    for (let i = 0; i < 2; i++) {
      const res = await gql(withAuthor, bearer(narrow.accessKey));
      expect(res.body.errors, res.text).toBeTruthy();
      expect(res.headers.get('x-cache')).toBe('bypass');
    }
  });
});
