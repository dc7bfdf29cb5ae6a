/**
 * The extension API (`use`): Nexus types and SDL added to the generated schema, resolvers
 * (new ones and replacements), `resolversConfig` (auth, middlewares, policies, in Strapi's
 * order), several extensions merged as Strapi merges them, factories, and the app's resolvers
 * getting their parent from the same one statement. In both shapes: in the flat one a custom query
 * returning `ArticleEntityResponseCollection` answers `{ nodes pageInfo }`, one returning `[Article]` a list.
 */
import { GraphQLError } from 'graphql';
import { extendType, intArg, list, nonNull, stringArg } from 'nexus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin } from '../../core/index.ts';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import type { GraphqlContext } from '../../plugins/graphql/read.ts';
import type { ExtensionContext } from '../../plugins/graphql/extension/service.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, type Shape, shapeConfig, shapeQueries, unwrapEntity } from '../helpers/graphql-shapes.ts';

const ARTICLE = 'api::article.article';
const FORBIDDEN = {
  message: 'Forbidden access',
  extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
};

/** what the resolvers, middlewares and policies did, in order */
const calls: string[] = [];
let factoryContext: ExtensionContext | undefined;
let policyArgs: unknown[][] = [];
let allowPolicy: unknown = true;

/** Words in a blocks value's text children. */
function words(body: unknown): number {
  if (!Array.isArray(body)) return 0;
  let n = 0;
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const { text, children } = node as { text?: unknown; children?: unknown };
    if (typeof text === 'string') n += text.split(/\s+/).filter(Boolean).length;
    if (Array.isArray(children)) children.forEach(walk);
  };
  body.forEach(walk);
  return n;
}

const extensionsFor = (shape: Shape) =>
  definePlugin({
    name: 'extension-test',
    dependencies: ['graphql'],
    // registered as plugin::extension-test.<name>, addressed by name in resolversConfig
    policies: {
      'max-n': (context, config) =>
        Number((context.args as { n?: number }).n ?? 0) <= ((config as { max?: number }).max ?? 1),
    },
    middlewares: {
      suffix:
        (options) =>
        async (next: (...a: unknown[]) => unknown, ...rest: unknown[]) =>
          `${await next(...rest)}${(options as { suffix?: string }).suffix ?? '!'}`,
    },
    register(app) {
      const { extension } = app.plugin(graphqlPlugin);
      extension.use({
        types: [
          extendType({
            type: 'Article',
            definition(t) {
              t.int('readingMinutes', {
                resolve: (parent: { body?: unknown }) => {
                  calls.push('readingMinutes');
                  return Math.max(1, Math.ceil(words(parent.body) / 200));
                },
              });
              t.string('sourceKeys', { resolve: (parent: object) => Object.keys(parent).sort().join(',') });
            },
          }),
          extendType({
            type: 'Query',
            definition(t) {
              t.field('articlesByAuthor', {
                type: 'ArticleEntityResponseCollection',
                args: { name: nonNull(stringArg()) },
                resolve: (_parent, args, context: GraphqlContext, info) =>
                  context.read(info, { uid: ARTICLE, filters: { author: { name: { $eq: args.name } } } }),
              });
              // the flat shape's documents as a list (the entity shape's `Article` is attributes only)
              if (shape === 'flat')
                t.field('articlesByAuthorList', {
                  type: list('Article'),
                  args: { name: nonNull(stringArg()) },
                  resolve: (_parent, args, context: GraphqlContext, info) =>
                    context.read(info, { uid: ARTICLE, filters: { author: { name: { $eq: args.name } } } }),
                });
              t.string('whoami', {
                resolve: (_p, _a, context: GraphqlContext) =>
                  String(context.state.auth && (context.state.auth as { strategy: string }).strategy),
              });
              t.string('open', { resolve: () => 'open to anyone' });
              t.string('scoped', { resolve: () => 'scoped' });
              t.string('ordered', {
                args: { n: intArg() },
                resolve: () => {
                  calls.push('resolver');
                  return 'done';
                },
              });
              t.string('guarded', { resolve: () => 'passed' });
              t.string('boom', {
                resolve: () => {
                  throw new Error('secret detail');
                },
              });
              t.string('shown', {
                resolve: () => {
                  throw new GraphQLError('a message for the client');
                },
              });
              t.string('named', { args: { n: intArg() }, resolve: () => 'named' });
              t.string('namedOptions', { args: { n: intArg() }, resolve: () => 'named' });
              t.string('merged', { resolve: () => 'nexus' });
              t.string('mergedConfig', { resolve: () => 'configured' });
            },
          }),
        ],
        typeDefs: `
        type BlogStats { articles: Int, tags: Int }
        extend type Query { stats: BlogStats }
      `,
        resolvers: {
          Query: {
            stats: async () => ({
              articles: await app.documents(ARTICLE).count({}),
              tags: await app.documents('api::tag.tag').count({}),
            }),
            merged: () => 'first',
          },
        },
        resolversConfig: {
          'Query.open': { auth: false },
          'Query.scoped': { auth: { scope: [`${ARTICLE}.find`, 'api::tag.tag.find'] } },
          'Query.ordered': {
            middlewares: [
              async (next, parent, args, context, info) => {
                calls.push('middleware 1');
                return next(parent, args, context, info);
              },
              async (next, parent, args, context, info) => {
                calls.push('middleware 2');
                return next(parent, args, context, info);
              },
            ],
            policies: [
              () => {
                calls.push('policy');
                return true;
              },
            ],
          },
          'Query.guarded': {
            policies: [
              (...args: unknown[]) => {
                policyArgs.push(args);
                return allowPolicy as boolean;
              },
            ],
          },
          'Query.mergedConfig': { auth: false },
          'Query.tags': {
            middlewares: [
              async (next, parent, args, context, info) => {
                calls.push('Query.tags middleware');
                return next(parent, args, context, info);
              },
            ],
          },
          'Article.tags': {
            // acts on a nested field: only the first tag of each article
            middlewares: [
              async (next, parent, args, context, info) => {
                const value = (await next(parent, args, context, info)) as { data: unknown[] } | unknown[] | null;
                if (Array.isArray(value)) return value.slice(0, 1);
                return value && { ...value, data: value.data.slice(0, 1) };
              },
            ],
          },
          'Mutation.createTag': { policies: [() => false] },
          // registered ones: a bare name, and the object forms with config and options
          'Query.named': { middlewares: ['plugin::extension-test.suffix'], policies: ['plugin::extension-test.max-n'] },
          'Query.namedOptions': {
            middlewares: [{ name: 'plugin::extension-test.suffix', options: { suffix: '?' } }],
            policies: [{ name: 'plugin::extension-test.max-n', config: { max: 5 } }],
          },
          'Query.authors': { auth: false },
        },
      });
      // a second extension: its resolver wins, its config loses to the first's
      extension.use(({ nexus, strapi, typeRegistry }) => {
        factoryContext = { nexus, strapi, app, typeRegistry };
        return {
          types: [
            nexus.objectType({ name: 'Greeting', definition: (t) => t.string('text') }),
            nexus.extendType({
              type: 'Query',
              definition: (t) => t.field('greeting', { type: 'Greeting', resolve: () => ({ text: 'hello' }) }),
            }),
          ],
          // a Nexus plugin: it sees every type (SDL ones included) and wraps the resolvers it wants
          plugins: [
            nexus.plugin({
              name: 'shout',
              onCreateFieldResolver: (config) =>
                config.fieldConfig.name === 'shout'
                  ? async (root, args, ctx, info, next) => String(await next(root, args, ctx, info)).toUpperCase()
                  : undefined,
            }),
          ],
          typeDefs: 'extend type Query { shout: String }',
          resolvers: { Query: { merged: () => 'second', shout: () => 'quiet' } },
          resolversConfig: { 'Query.mergedConfig': { auth: { scope: ['nobody.has.this'] } } },
        };
      });
    },
  });

describe.each(SHAPES)('the GraphQL extension API (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  const flat = shape === 'flat';
  let t: TestApp;

  const gql = (query: string, key?: string | null, variables?: Record<string, unknown>) =>
    t.request(
      'POST',
      '/graphql',
      { query, variables },
      key === undefined ? {} : { authorization: key ? `Bearer ${key}` : '' },
    );

  async function tokenFor(type: 'read-only' | 'custom' | 'full-access', permissions: string[] = []): Promise<string> {
    const name = `t-${type}-${permissions.length}-${Math.random()}`;
    return (await t.app.plugin(usersPermissionsPlugin).tokens.create({ name, type, permissions })).accessKey;
  }

  let ada: string;

  beforeAll(async () => {
    t = await startApp({ config: shapeConfig(shape), plugins: [extensionsFor(shape)] });
    const authors = t.app.documents('api::author.author');
    ada = (await authors.create({ data: { name: 'Ada' } })).documentId as string;
    const bob = (await authors.create({ data: { name: 'Bob' } })).documentId as string;
    const tags = [];
    for (const name of ['a', 'b', 'c'])
      tags.push((await t.app.documents('api::tag.tag').create({ data: { name } })).documentId);
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: 'word '.repeat(450) }] }];
    await t.app.documents(ARTICLE).create({
      status: 'published',
      data: { title: 'Long', author: ada, body, tags, internalNotes: 'private' },
    });
    await t.app.documents(ARTICLE).create({ status: 'published', data: { title: 'Short', author: bob, tags } });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('types, typeDefs and resolvers', () => {
    it('adds a field to a generated type, its resolver given every attribute of the document read', async () => {
      t.queries.length = 0;
      const res = await gql(`{ ${q.list('articles', 'title readingMinutes', 'sort: "title"')} }`);
      expect(res.body.errors).toBeUndefined();
      expect(q.data(res.body.data)).toEqual({
        articles: [
          { title: 'Long', readingMinutes: 3 },
          { title: 'Short', readingMinutes: 1 },
        ],
      });
      // a custom field under a list costs no statement of its own
      const reads = t.queries.filter(
        (q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q),
      );
      expect(reads).toHaveLength(1);
    });

    it("gives the app's resolvers no private attribute", async () => {
      const res = await gql(`{ ${q.list('articles', 'sourceKeys', 'filters: { title: { eq: "Long" } }')} }`);
      const keys = String(q.data(res.body.data).articles[0].sourceKeys).split(',');
      expect(keys).toEqual(expect.arrayContaining(['id', 'documentId', 'title', 'body', 'views', 'publishedAt']));
      expect(keys).not.toContain('internalNotes');
    });

    it('answers a custom query with an authorized read of the query engine, in one statement', async () => {
      t.queries.length = 0;
      const res = await gql(
        flat
          ? '{ articlesByAuthor(name: "Ada") { nodes { documentId title author { name } } pageInfo { total } } }'
          : `{ articlesByAuthor(name: "Ada") {
          data { id attributes { title author { data { attributes { name } } } } }
          meta { pagination { total } } } }`,
      );
      expect(res.body.errors).toBeUndefined();
      const answer = res.body.data.articlesByAuthor;
      const rows = flat ? answer.nodes : unwrapEntity(answer.data);
      expect(rows).toEqual([{ documentId: expect.any(String), title: 'Long', author: { name: 'Ada' } }]);
      expect(flat ? answer.pageInfo.total : answer.meta.pagination.total).toBe(1);
      const reads = t.queries.filter(
        (q) => /^(with|select)/i.test(q) && !/strapi_api_tokens|up_roles|advisory/.test(q),
      );
      expect(reads).toHaveLength(1);
    });

    // flat shape only: a custom query returning `[Article]` (the entity shape has no such documents' type)
    if (flat) {
      it('answers a custom query returning [Article] with a list, in one statement', async () => {
        t.queries.length = 0;
        const res = await gql('{ articlesByAuthor: articlesByAuthorList(name: "Ada") { title author { name } } }');
        expect(res.body).toEqual({ data: { articlesByAuthor: [{ title: 'Long', author: { name: 'Ada' } }] } });
        const reads = t.queries.filter(
          (s) => /^(with|select)/i.test(s) && !/strapi_api_tokens|up_roles|advisory/.test(s),
        );
        expect(reads).toHaveLength(1);
        const key = await tokenFor('custom', ['api::tag.tag.find']);
        const denied = await gql('{ articlesByAuthorList(name: "Ada") { title } }', key);
        expect(denied.body).toEqual({ errors: [FORBIDDEN], data: { articlesByAuthorList: null } });
      });
    }

    it("applies the caller's rights to a custom query's read", async () => {
      // a token that may use the query but not read articles
      const key = await tokenFor('custom', ['api::tag.tag.find']);
      const res = await gql(
        `{ articlesByAuthor(name: "Ada") { ${flat ? 'nodes { documentId }' : 'data { id }'} } }`,
        key,
      );
      expect(res.body.errors).toEqual([FORBIDDEN]);
      expect(res.body.data).toEqual({ articlesByAuthor: null });
    });

    it('merges SDL typeDefs, with resolvers for them', async () => {
      const res = await gql('{ stats { articles tags } }');
      expect(res.body).toEqual({ data: { stats: { articles: 2, tags: 3 } } });
    });

    it('takes Nexus types from a factory, which gets nexus, strapi, app and the type registry', async () => {
      expect(factoryContext?.typeRegistry.has(q.entityType('Article'))).toBe(true);
      expect(factoryContext?.typeRegistry.get(q.entityType('Article'))).toMatchObject({ uid: ARTICLE });
      expect(factoryContext?.typeRegistry.has('NoSuchType')).toBe(false);
      expect(typeof factoryContext?.nexus.objectType).toBe('function');
      expect(factoryContext?.strapi).toBeDefined();
      const res = await gql('{ greeting { text } }');
      expect(res.body).toEqual({ data: { greeting: { text: 'hello' } } });
    });

    it('runs Nexus plugins over the whole schema', async () => {
      expect((await gql('{ shout }')).body).toEqual({ data: { shout: 'QUIET' } });
    });

    it('lets a later resolver replace an earlier one, and keeps the earlier resolversConfig entry', async () => {
      expect((await gql('{ merged }')).body).toEqual({ data: { merged: 'second' } });
      // the first extension's `auth: false` wins over the second's impossible scope
      expect((await gql('{ mergedConfig }', null)).body).toEqual({ data: { mergedConfig: 'configured' } });
    });

    it("hides what an app's resolver throws, unless it is a GraphQLError", async () => {
      const boom = await gql('{ boom }');
      expect(boom.body.errors).toEqual([
        { message: 'Internal Server Error', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ]);
      expect(JSON.stringify(boom.body)).not.toContain('secret');
      const shown = await gql('{ shown }');
      expect(shown.body.errors[0].message).toBe('a message for the client');
    });
  });

  describe('resolversConfig', () => {
    it('lets anyone call a field with auth: false, anonymous included', async () => {
      expect((await gql('{ open }', null)).body).toEqual({ data: { open: 'open to anyone' } });
    });

    it('opens a custom query without config to any authenticated caller, never to an anonymous one', async () => {
      expect((await gql('{ whoami }', null)).body).toEqual({ errors: [FORBIDDEN], data: { whoami: null } });
      const jwt = await t.userJwt();
      expect((await gql('{ whoami }', jwt)).body).toEqual({ data: { whoami: 'users-permissions' } });
      expect((await gql('{ whoami }', await tokenFor('full-access'))).body).toEqual({ data: { whoami: 'api-token' } });
      // Strapi's token strategy: a read-only or custom token passes only named scopes
      expect((await gql('{ whoami }', await tokenFor('read-only'))).body.errors).toEqual([FORBIDDEN]);
      expect((await gql('{ whoami }', await tokenFor('custom', [`${ARTICLE}.find`]))).body.errors).toEqual([FORBIDDEN]);
    });

    it('needs every scope of auth.scope', async () => {
      const one = await tokenFor('custom', [`${ARTICLE}.find`]);
      expect((await gql('{ scoped }', one)).body).toEqual({ errors: [FORBIDDEN], data: { scoped: null } });
      const both = await tokenFor('custom', [`${ARTICLE}.find`, 'api::tag.tag.find']);
      expect((await gql('{ scoped }', both)).body).toEqual({ data: { scoped: 'scoped' } });
      // the blog's Public role grants both: anonymous callers pass a scope their role grants
      expect((await gql('{ scoped }', null)).body).toEqual({ data: { scoped: 'scoped' } });
    });

    it('runs auth, then the middlewares as declared, then the policies, then the resolver', async () => {
      calls.length = 0;
      expect((await gql('{ ordered }', null)).body.errors).toEqual([FORBIDDEN]);
      // refused by auth: nothing else ran
      expect(calls).toEqual([]);
      expect((await gql('{ ordered }')).body).toEqual({ data: { ordered: 'done' } });
      expect(calls).toEqual(['middleware 1', 'middleware 2', 'policy', 'resolver']);
    });

    it('runs registered middlewares and policies named alone or with options and config', async () => {
      expect((await gql('{ named }')).body).toEqual({ data: { named: 'named!' } });
      expect((await gql('{ named(n: 2) }')).body).toEqual({ errors: [FORBIDDEN], data: { named: null } });
      expect((await gql('{ namedOptions(n: 5) }')).body).toEqual({ data: { namedOptions: 'named?' } });
      expect((await gql('{ namedOptions(n: 6) }')).body.errors).toEqual([FORBIDDEN]);
    });

    it('passes a policy answering true or undefined and refuses anything else with FORBIDDEN', async () => {
      for (const [answer, passes] of [
        [true, true],
        [undefined, true],
        [false, false],
        ['yes', false],
        [1, false],
      ] as const) {
        allowPolicy = answer;
        const res = await gql('{ guarded }');
        expect(res.body, String(answer)).toEqual(
          passes ? { data: { guarded: 'passed' } } : { errors: [FORBIDDEN], data: { guarded: null } },
        );
      }
      allowPolicy = true;
    });

    it('calls an inline policy so both (context, { strapi }) and (context, config, { strapi }) work', async () => {
      policyArgs = [];
      await gql('{ guarded }');
      const [context, second, third] = policyArgs[0] as [
        Record<string, unknown>,
        Record<string, unknown>,
        Record<string, unknown>,
      ];
      expect((context.is as (t: string) => boolean)('graphql')).toBe(true);
      expect(context.type).toBe('graphql');
      expect(context.args).toEqual({});
      expect((context.info as { fieldName: string }).fieldName).toBe('guarded');
      expect((context.state as { auth: { strategy: string } }).auth.strategy).toBe('api-token');
      expect(second.strapi).toBeDefined();
      expect(third.strapi).toBe(second.strapi);
    });

    it('refuses a mutation its policy refuses, writing nothing', async () => {
      const before = await t.app.documents('api::tag.tag').count({});
      const res = await gql(`mutation { ${q.ids('createTag', 'data: { name: "x" }')} }`);
      expect(res.body).toEqual({ errors: [FORBIDDEN], data: { createTag: null } });
      expect(await t.app.documents('api::tag.tag').count({})).toBe(before);
    });

    it('keeps a middleware on Query.tags off Article.tags, and lets one act on the nested field', async () => {
      calls.length = 0;
      const res = await gql(`{ ${q.list('articles', `tags ${q.docs('name')}`, 'sort: "title"')} }`);
      expect(calls).toEqual([]);
      expect(res.body.errors).toBeUndefined();
      expect(q.data(res.body.data).articles[0].tags).toEqual([{ name: 'a' }]);
      await gql(`{ ${q.ids('tags')} }`);
      expect(calls).toEqual(['Query.tags middleware']);
    });

    it('opens a generated query to anyone with auth: false on it, and only that query', async () => {
      // a token granted nothing about authors: the config decides for `authors`, REST and other queries still refuse
      const nothing = await tokenFor('custom', ['api::global.global.find']);
      const res = await gql(`{ ${q.list('authors', 'name', 'sort: "name"')} }`, nothing);
      expect(res.body.errors).toBeUndefined();
      expect(q.data(res.body.data)).toEqual({ authors: [{ name: 'Ada' }, { name: 'Bob' }] });
      // nested reads keep their own check: null, or in the flat shape's non-null `[Article]!` an empty list
      const nested = await gql(`{ ${q.list('authors', q.ids('articles'), 'sort: "name"')} }`, nothing);
      expect(nested.body.errors).toEqual([FORBIDDEN]);
      expect(q.data(nested.body.data).authors[0].articles).toEqual(flat ? [] : null);
      expect((await gql(`{ ${q.ids('author', `${q.id}: "x"`)} }`, nothing)).body.errors).toEqual([FORBIDDEN]);
      const rest = await t.request('GET', '/api/authors', undefined, { authorization: `Bearer ${nothing}` });
      expect(rest.status).toBe(403);
    });
  });

  describe('extensions that cannot apply', () => {
    const failing = (extension: Parameters<ReturnType<typeof graphqlPluginApi>['use']>[0]) =>
      definePlugin({
        name: 'bad-extension',
        dependencies: ['graphql'],
        register(app) {
          app.plugin(graphqlPlugin).extension.use(extension);
        },
      });
    const graphqlPluginApi = (app: TestApp['app']) => app.plugin(graphqlPlugin).extension;

    it.each([
      [{ resolvers: { NoSuchType: { x: () => 1 } } }, 'resolvers name the type NoSuchType'],
      [{ resolvers: { Query: { noSuchField: () => 1 } } }, 'resolvers name Query.noSuchField'],
      [{ resolversConfig: { 'Query.articles': { middlewares: ['global::nope'] } } }, 'nope'],
      [{ resolversConfig: { 'Query.articles': { policies: ['plugin::extension-test.nope'] } } }, 'nope'],
      [
        { resolversConfig: { 'Query.articles': { auth: { scope: 'x' } } } },
        'auth must be false or { scope: string[] }',
      ],
      [{ typeDefs: 'extend type NoSuchType { x: Int }' }, 'typeDefs do not merge'],
    ])('fails the start, naming what is wrong: %j', async (extension, message) => {
      await expect(startApp({ config: shapeConfig(shape), plugins: [failing(extension as never)] })).rejects.toThrow(
        message,
      );
    });
  });
});
