/**
 * Hostile GraphQL through real HTTP against the blog example, as the Public role (no credentials):
 * oversized and pathological documents and variables are refused with a 4xx before they cost
 * much, never a 500, and after each the server still answers a normal query. Private attributes
 * cannot be learnt through filters, sorts or introspection; heavy queries do not starve a light
 * one; the statement timeout and client cancellation apply to GraphQL reads. In both shapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp, type TestResponse } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';
import { until } from '../helpers/until.ts';

const ARTICLE = 'api::article.article';
const PUBLIC = { authorization: '' };

/** A 4xx with a GraphQL `errors` array. */
function expectRefused(res: TestResponse, status?: number): void {
  expect(res.status, res.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
  if (status) expect(res.status).toBe(status);
  expect(Array.isArray(res.body.errors)).toBe(true);
}

describe.each(SHAPES)('%s shape', (shape) => {
  const q = shapeQueries(shape);
  let t: TestApp;
  /** every answer this file received, checked for leaks at the end */
  const seen: string[] = [];

  async function post(body: unknown, headers: Record<string, string> = PUBLIC): Promise<TestResponse> {
    const res = await t.request('POST', '/graphql', body, headers);
    seen.push(res.text);
    return res;
  }

  const gql = (query: string, variables?: unknown): Promise<TestResponse> => post({ query, variables });

  /** The server still answers an ordinary query correctly. */
  async function stillServes(): Promise<void> {
    const res = await gql(`{ ${q.list('articles', 'title', 'sort: "title"')} }`);
    expect(res.status).toBe(200);
    expect(q.rows(res.body.data.articles).map((a) => a.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
  }

  beforeAll(async () => {
    t = await startApp({ config: shapeConfig(shape) });
    for (const [i, title] of ['Alpha', 'Beta', 'Gamma'].entries()) {
      await t.app.documents(ARTICLE).create({
        status: 'published',
        data: { title, slug: title.toLowerCase(), views: i, internalNotes: `secret-${i}` },
      });
    }
  });
  afterAll(async () => {
    await t?.close();
    // nothing of the internals in any answer
    for (const text of seen) expect(text).not.toMatch(/\bat .*\.ts:\d+|select .* from|node_modules|stack/i);
  });

  describe('hostile GraphQL documents', () => {
    it('refuses nesting past depthLimit (400) without stalling', async () => {
      const deep = (n: number): string => (n === 0 ? 'title' : `articles ${q.docs(deep(n - 1))}`);
      const res = await gql(`{ tags ${q.docs(deep(200))} }`);
      expectRefused(res, 400);
      // deeper than graphql's parser recursion, bounded by maxTokens first
      for (const n of [2000, 3000, 5000]) {
        const braces = `{ ${'a { '.repeat(n)}b${' }'.repeat(n)} }`;
        expectRefused(await gql(braces), 400);
      }
      await stillServes();
    });

    it('refuses alias bombs and too many root fields (400)', async () => {
      const aliases = Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(' ');
      const bomb = await gql(`{ ${q.entities('articles', aliases)} }`);
      expectRefused(bomb, 400);
      const roots = Array.from({ length: 60 }, (_, i) => `r${i}: ${q.ids('tags', 'pagination: { limit: 1 }')}`);
      const many = await gql(`{ ${roots.join(' ')} }`);
      expectRefused(many, 400);
      expect(many.body.errors[0].message).toMatch(/aliases|root fields/);
      // the same field repeated without aliases counts each time (validation compares them pairwise)
      const repeated = await gql(`{ ${`${q.ids('articles')} `.repeat(200)} }`);
      expectRefused(repeated, 400);
      await stillServes();
    });

    it('refuses fragment bombs (each spread counted) and fragment cycles (400)', async () => {
      // T0 → two aliased lists of A0 → two aliased lists of T1 → …: 2^40 fields once expanded, 3 kB of text
      const list = (field: string, spread: string): string => `${field} ${q.docs(spread)}`;
      const defs = Array.from({ length: 20 }, (_, i) => {
        const next = i < 19 ? `...T${i + 1}` : 'name';
        return (
          `fragment T${i} on Tag { a: ${list('articles', `...A${i}`)} b: ${list('articles', `...A${i}`)} } ` +
          `fragment A${i} on Article { a: ${list('tags', next)} b: ${list('tags', next)} }`
        );
      });
      const bomb = await gql(`{ tags ${q.docs('...T0')} } ${defs.join(' ')}`);
      expectRefused(bomb, 400);
      const tag = q.entityType('Tag');
      const cycle = await gql(
        `{ ${q.entities('tags', '...A')} } fragment A on ${tag} { ${q.id} ...B } fragment B on ${tag} { ...A }`,
      );
      expectRefused(cycle, 400);
      expect(cycle.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      const unknown = await gql(`{ ${q.entities('tags', '...Nope')} }`);
      expectRefused(unknown, 400);
      await stillServes();
    });

    it('refuses huge documents by size (413) and by tokens (400)', async () => {
      const huge = `{ ${q.ids('articles')} } # ${'x'.repeat(1024 * 1024)}`;
      expectRefused(await gql(huge), 413);
      const tokens = `{ ${q.ids('articles', `filters: { or: [${'{ title: { eq: "a" } } '.repeat(2000)}] }`)} }`;
      const res = await gql(tokens);
      expectRefused(res, 400);
      expect(res.body.errors[0].message).toMatch(/tokens/);
      await stillServes();
    });

    it('refuses huge and deeply nested variables (4xx)', async () => {
      const query = `query ($t: String) { ${q.ids('articles', 'filters: { title: { eq: $t } }')} }`;
      expectRefused(await gql(query, { t: 'x'.repeat(1_500_000) }), 413);
      const nested = `${'['.repeat(100_000)}1${']'.repeat(100_000)}`;
      const json = `query ($j: JSON) { ${q.ids('articles', 'filters: { body: { eq: $j } }')} }`;
      const res = await post(`{"query":${JSON.stringify(json)},"variables":{"j":${nested}}}`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      await stillServes();
    });

    it('answers NUL bytes and __proto__ / constructor keys without a 500', async () => {
      const title = `query ($t: String) { ${q.ids('articles', 'filters: { title: { eq: $t } }')} }`;
      const nul = await gql(title, { t: 'a\u0000b' });
      expect(nul.status).toBeLessThan(500);
      const nulQuery = await gql(`{ ${q.ids('articles', 'filters: { title: { eq: "a\\u0000b" } }')} }`);
      expect(nulQuery.status).toBeLessThan(500);
      const proto = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}');
      const json = `query ($j: JSON) { ${q.ids('articles', 'filters: { body: { eq: $j } }')} }`;
      for (const variables of [proto, { j: proto }, { j: { __proto__: 1, constructor: 'x' } }]) {
        const res = await gql(json, variables);
        expect(res.status, res.text).toBeLessThan(500);
      }
      const raw =
        `{"query":"query ($f: ArticleFiltersInput) { ${q.ids('articles', 'filters: $f')} }",` +
        '"variables":{"f":{"__proto__":{"title":{"eq":"Alpha"}},"constructor":{"eq":1}}}}';
      const res = await post(raw);
      expect(res.status).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      // fragments named like Object.prototype's keys are fragments like any other
      for (const name of ['__proto__', 'constructor', 'toString']) {
        const named = await gql(`{ ...${name} } fragment ${name} on Query { __typename }`);
        expect(named.body, name).toEqual({ data: { __typename: 'Query' } });
      }
      await stillServes();
    });

    it('refuses wrong types in variables (400 BAD_USER_INPUT)', async () => {
      const query = `query ($p: PaginationArg, $s: [String]) { ${q.ids('articles', 'pagination: $p, sort: $s')} }`;
      for (const variables of [{ p: { limit: 'ten' } }, { p: 'x' }, { s: { a: 1 } }, { p: { limit: 2 ** 40 } }, []]) {
        const res = await gql(query, variables);
        expectRefused(res, 400);
      }
      const notObject = await post({ query: `{ ${q.ids('articles')} }`, variables: 'x' });
      expectRefused(notObject, 400);
      await stillServes();
    });

    it('refuses batched operation arrays and bodies that are not an operation (4xx)', async () => {
      const batch = await post(Array.from({ length: 1000 }, () => ({ query: `{ ${q.ids('articles')} }` })));
      expectRefused(batch, 400);
      for (const body of [{}, { query: 42 }, { query: '' }, { query: ['{ a }'] }, 'null']) {
        expectRefused(await post(body), 400);
      }
      const form = await t.request('POST', '/graphql', `query={ ${q.ids('articles')} }`, {
        ...PUBLIC,
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      await stillServes();
    });
  });

  describe('least permission (Public)', () => {
    it('cannot learn a private attribute through filters, sorts or introspection', async () => {
      const filters = [
        q.ids('articles', 'filters: { internalNotes: { startsWith: "secret" } }'),
        q.ids('articles', 'filters: { or: [{ internalNotes: { eq: "secret-0" } }, { title: { eq: "x" } }] }'),
        q.ids('articles', 'filters: { not: { internalNotes: { null: true } } }'),
        `tags ${q.docs(q.ids('articles', 'filters: { internalNotes: { eq: "secret-0" } }'))}`,
        q.ids('articles', 'sort: "internalNotes:asc"'),
        q.ids('articles', 'sort: ["title", "internalNotes"]'),
      ].map((field) => `{ ${field} }`);
      for (const query of filters) {
        const res = await gql(query);
        expect(res.text).not.toContain('secret-');
        if (shape === 'flat' && query.includes('filters')) {
          // Strapi 5 leaves private attributes out of the filters' input types: refused at validation
          expectRefused(res, 400);
          expect(res.body.errors[0].extensions.code, query).toBe('GRAPHQL_VALIDATION_FAILED');
          continue;
        }
        // refused as Strapi 4 does, at run time: the field null, BAD_USER_INPUT, nothing read
        expect(res.status, query).toBe(200);
        expect(res.body.errors[0].extensions.code, query).toBe('BAD_USER_INPUT');
        expect(res.body.data?.articles ?? null, query).toBeNull();
        expect(res.body.data?.tags ?? null, query).toBeNull();
      }
      const output = await gql(`{ ${q.list('articles', 'internalNotes')} }`);
      expectRefused(output, 400);
      const type = await gql('{ __type(name: "Article") { fields { name } } }');
      expect(type.status).toBe(200);
      expect(type.body.data.__type.fields.map((f: { name: string }) => f.name)).not.toContain('internalNotes');
      // users are not the Public role's to read, whatever the filter
      const users = await gql(`{ ${q.ids('usersPermissionsUsers', 'filters: { email: { contains: "@" } }')} }`);
      expect(users.body.data?.usersPermissionsUsers ?? null).toBeNull();
      expect(users.body.errors[0].extensions.code).toBe('FORBIDDEN');
    });
  });

  describe('expensive queries', () => {
    it('a light query still answers while five heavy ones run', async () => {
      const heavy = Array.from(
        { length: 4 },
        (_, i) =>
          `h${i}: ${q.list(
            'articles',
            `title
        tags(pagination: { limit: 25 }) ${q.docs(q.ids('articles', 'pagination: { limit: 25 }'))}
        author ${q.docs(q.list('articles', 'title', 'pagination: { limit: 25 }'))}`,
            'pagination: { limit: 25 }',
          )}`,
      );
      const running = Array.from({ length: 5 }, () => gql(`{ ${heavy.join(' ')} }`));
      const light = await gql(`{ ${q.ids('tags', 'pagination: { limit: 1 }')} }`);
      expect(light.status).toBe(200);
      for (const res of await Promise.all(running)) expect(res.status).toBe(200);
    });

    describe('with a statement timeout', () => {
      let s: TestApp;
      /** backends of this app waiting on the lock the test holds */
      const waiting = async (): Promise<number> => {
        const { rows } = await s.sql.raw(
          'SELECT count(*)::int AS n FROM pg_stat_activity ' +
            "WHERE datname = current_database() AND wait_event_type = 'Lock'",
        );
        return rows[0].n;
      };
      const query = JSON.stringify({ query: `{ ${q.ids('articles')} }` });
      const send = (signal?: AbortSignal) =>
        fetch(`${s.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: query,
          signal,
        });

      beforeAll(async () => {
        // a request must hold a connection: no answer from the response cache
        s = await startApp({
          config: { ...shapeConfig(shape), database: { statementTimeout: 1000 } },
          env: { RESPONSE_CACHE: 'false' },
        });
      });
      afterAll(async () => {
        await s?.close();
      });

      /** Hold an exclusive lock on the articles table while `fn` runs: every read of it waits. */
      async function locked<T>(fn: () => Promise<T>): Promise<T> {
        const trx = await s.sql.transaction();
        try {
          await trx.raw('LOCK TABLE articles IN ACCESS EXCLUSIVE MODE');
          return await fn();
        } finally {
          await trx.rollback();
        }
      }

      it('cancels a GraphQL read past database.statementTimeout (an error, never a 500 or a hang)', async () => {
        const res = await locked(() => send());
        const body = await res.json();
        expect(res.status).toBe(200);
        expect(body.data?.articles ?? null).toBeNull();
        expect(body.errors[0].extensions.code).toBe('STRAPI_SERVICE_UNAVAILABLE_ERROR');
        expect(body.errors[0].message).not.toMatch(/select|lock|statement/i);
        expect(await until(async () => (await waiting()) === 0)).toBe(true);
        expect((await send()).status).toBe(200);
      });

      it('frees the connection of a request whose client goes away', async () => {
        await locked(async () => {
          const client = new AbortController();
          const pending = send(client.signal).catch((e: Error) => e);
          expect(await until(async () => (await waiting()) === 1)).toBe(true);
          client.abort();
          expect(await pending).toBeInstanceOf(Error);
          // cancelled while the lock is still held, long before the statement timeout
          expect(await until(async () => (await waiting()) === 0, 500)).toBe(true);
        });
        expect((await send()).status).toBe(200);
      });
    });
  });
});
