/** `graphql.config` is checked at start like every plugin's config, and its options apply. */
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../index.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

describe('graphql.config', () => {
  it('stops start-up on a bad value, naming the file and key', async () => {
    const err = await startApp({ config: { plugins: { graphql: { config: { depthLimit: 'deep' } } } } }).then(
      async (t) => {
        await t.close();
        return null;
      },
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err?.message).toContain(
      `config/plugins (the override given to createApp, app ${BLOG}): graphql.config.depthLimit: expected number`,
    );
  });

  it.each(SHAPES)('serves at its endpoint with its limits (%s shape)', async (shape) => {
    const q = shapeQueries(shape);
    const t = await startApp({
      config: shapeConfig(shape, { endpoint: '/gql', defaultLimit: 2, maxLimit: 3, depthLimit: 2 }),
    });
    try {
      for (const name of ['a', 'b', 'c', 'd']) await t.app.documents('api::tag.tag').create({ data: { name } });
      const page = await t.request('POST', '/gql', { query: `{ ${q.ids('tags')} }` });
      expect(q.rows(page.body.data.tags)).toHaveLength(2);
      const capped = await t.request('POST', '/gql', { query: `{ ${q.ids('tags', 'pagination: { limit: 50 }')} }` });
      expect(q.rows(capped.body.data.tags)).toHaveLength(3);
      // three levels below the root field: past depthLimit in either shape
      const deep = await t.request('POST', '/gql', {
        query: `{ ${q.list('tags', `articles ${q.docs(`author ${q.docs('name')}`)}`)} }`,
      });
      expect(deep.status).toBe(400);
      expect((await t.request('POST', '/graphql', { query: '{ __typename }' })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses introspection and the playground in production unless playgroundAlways', async () => {
    const introspect = { query: '{ __schema { queryType { name } } }' };
    const browser = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8', authorization: '' };
    const page = async (t: TestApp) => {
      const res = await t.request('GET', '/graphql', undefined, browser);
      return { status: res.status, html: /^text\/html/.test(res.headers.get('content-type') ?? '') };
    };
    const dev = await startApp();
    try {
      expect(await page(dev)).toEqual({ status: 200, html: true });
      // a GraphQL client's GET still reaches the endpoint
      const res = await dev.request('GET', `/graphql?query=${encodeURIComponent('{ __typename }')}`);
      expect(res.body).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await dev.close();
    }
    const prod = await startApp({ env: { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(32), API_TOKEN_SALT: 's' } });
    try {
      expect((await page(prod)).html).toBe(false);
      const res = await prod.request('POST', '/graphql', introspect);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect((await prod.request('POST', '/graphql', { query: '{ __typename }' })).status).toBe(200);
    } finally {
      await prod.close();
    }
    const always = await startApp({
      env: { NODE_ENV: 'production', JWT_SECRET: 'j'.repeat(32), API_TOKEN_SALT: 's' },
      config: { plugins: { graphql: { config: { playgroundAlways: true } } } },
    });
    try {
      expect((await always.request('POST', '/graphql', introspect)).status).toBe(200);
      expect(await page(always)).toEqual({ status: 200, html: true });
    } finally {
      await always.close();
    }
  });

  it("takes Strapi 4's apolloServer: introspection applies, Apollo-only keys ignored with a warning", async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const apolloServer = { introspection: false, csrfPrevention: true, persistedQueries: false };
    const t = await startApp({ logger, config: { plugins: { graphql: { config: { apolloServer } } } } });
    try {
      const res = await t.request('POST', '/graphql', { query: '{ __schema { queryType { name } } }' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(lines.join('')).toContain('apolloServer options csrfPrevention, persistedQueries do not apply');
    } finally {
      await t.close();
    }
    const err = await startApp({ config: { plugins: { graphql: { config: { apolloServer: { nope: 1 } } } } } }).then(
      async (app) => {
        await app.close();
        return null;
      },
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err?.message).toContain('graphql.config.apolloServer');
  });

  it.each(SHAPES)('applies maxTokens, maxDocumentSize, maxAliases and maxRootFields (%s shape)', async (shape) => {
    const q = shapeQueries(shape);
    const limits = { maxTokens: 12, maxDocumentSize: 60, maxAliases: 1, maxRootFields: 2 };
    const t = await startApp({ config: shapeConfig(shape, limits) });
    try {
      const post = (query: string) => t.request('POST', '/graphql', { query });
      expect((await post(`{ ${q.ids('tags')} }`)).status).toBe(200);
      // 14 tokens, under 60 characters
      const many =
        shape === 'flat'
          ? '{ tags(sort: ["name"]) { name createdAt } }'
          : '{ tags { data { id attributes { name } } } }';
      expect((await post(many)).body.errors[0].message).toMatch(/tokens/);
      expect((await post(`{ ${q.ids('tags')} } #${'x'.repeat(60)}`)).status).toBe(413);
      expect((await post('{ a: __typename b: __typename }')).body.errors[0].message).toMatch(/1 aliases/);
      expect((await post(`{ __typename ${q.ids('tags')} ${q.ids('authors')} }`)).status).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('generates nothing from the content-types without shadowCRUD (and serves nothing then)', async () => {
    const t = await startApp({ config: { plugins: { graphql: { config: { shadowCRUD: false } } } } });
    try {
      // nothing defines a query: there is nothing to serve
      expect((await t.request('POST', '/graphql', { query: '{ __typename }' })).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is off with the plugin disabled', async () => {
    const t = await startApp({ config: { plugins: { graphql: { enabled: false } } } });
    try {
      expect((await t.request('POST', '/graphql', { query: '{ __typename }' })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
