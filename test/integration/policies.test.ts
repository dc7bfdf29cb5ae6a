import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, type PolicyContext, type RequestContext } from '../../index.ts';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

const type = (singularName: string, pluralName: string) => ({
  kind: 'collectionType',
  collectionName: pluralName,
  info: { singularName, pluralName },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' } },
});
const contentTypes = {
  article: type('article', 'articles'),
  note: type('note', 'notes'),
  memo: type('memo', 'memos'),
  hit: type('hit', 'hits'),
};

/** `ctx.state.trail`: what ran, in order; the trail-header middleware answers it as `x-trail`. */
const PUSH = `const push = (ctx, what) => { (ctx.state.trail ??= []).push(what); };`;

const FILES: Record<string, string> = {
  // global::trail: a bare name in a routes file and in app.policy
  'src/policies/trail.ts': `${PUSH}\nexport default (ctx, config) => { push(ctx, 'global' + (config.tag ?? '')); };`,
  'src/policies/deny.ts': 'export default () => false;',
  'src/policies/throws.ts': `import { validationError } from 'vellum';
export default () => { throw validationError('The policy says the title is wrong'); };`,
  'src/policies/custom-message.ts': `import { policyFailed } from 'vellum';
export default () => { throw policyFailed('Only on Tuesdays'); };`,
  'src/policies/check-koa.ts': `${PUSH}
export default (ctx) => {
  push(ctx, ['koa', ctx.is('koa'), ctx.is('graphql'), ctx.type, ctx.state.auth.strategy, ctx.request.method].join(':'));
  return true;
};`,
  // CommonJS, with the strapi facade as its third argument
  'src/policies/uses-strapi.cjs': `module.exports = async (ctx, config, { strapi }) => {
  (ctx.state.trail ??= []).push('cjs:' + (await strapi.documents('api::hit.hit').count()));
  return true;
};`,
  // writes a row each time it runs: how a test sees that a request never reached it
  'src/policies/hit.js': `export default async (ctx, config, { strapi }) => {
  await strapi.documents('api::hit.hit').create({ data: { title: 'policy ran' } });
};`,
  'src/api/article/policies/owner.ts': `${PUSH}
export default (ctx, config) => { push(ctx, 'api:' + JSON.stringify(config)); };`,
  'src/middlewares/trail-header.ts': `${PUSH}
export default (options, { strapi, app }) => async (ctx, next) => {
  push(ctx, 'mw:header:' + (typeof strapi.plugin) + ':' + (app.strapi === strapi));
  await next();
  if (ctx.body) push(ctx, 'controller');
  ctx.set('x-trail', ctx.state.trail.join(','));
};`,
  'src/api/article/middlewares/tag.ts': `${PUSH}
export default (options) => async (ctx, next) => { push(ctx, 'tag:' + options.label); await next(); };`,
  'src/api/article/routes/article.ts': `import { factories } from 'vellum';
${PUSH}
export default factories.createCoreRouter('api::article.article', {
  config: {
    find: {
      policies: [
        'trail',
        'global::check-koa',
        { name: 'owner', config: { x: 1 } },
        'plugin::gate.open',
        'global::uses-strapi',
        (ctx, deps) => { push(ctx, 'inline2:' + typeof deps.strapi.documents + ':' + typeof deps.app.policy); },
        (ctx, config, deps) => { push(ctx, 'inline3:' + (config === deps) + ':' + typeof deps.strapi.plugin); },
      ],
      middlewares: [
        'global::trail-header',
        { name: 'api::article.tag', options: { label: 'a' } },
        { name: 'plugin::gate.stamp', config: { label: 'b' } },
        async (ctx, next) => { push(ctx, 'inline-mw'); await next(); },
      ],
    },
    findOne: { policies: ['custom-message'] },
    create: { policies: ['deny'] },
    update: { policies: ['throws'] },
    delete: { policies: ['hit'] },
  },
});`,
  'src/api/note/routes/note.js': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::note.note', { only: ['find', 'findOne'] });`,
  'src/api/memo/routes/memo.mjs': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::memo.memo', { except: ['findOne', 'update', 'delete'] });`,
  'src/index.ts': `import { graphqlPlugin } from 'vellum/plugins/graphql';
const seen = {};
export default {
  register({ app, strapi }) {
    const extension = strapi.plugin('graphql').service('extension');
    seen.registerExtensionIsTheApis = extension === app.plugin(graphqlPlugin).extension;
    seen.services = Object.keys(strapi.plugin('graphql').services);
    seen.endpoint = strapi.config.get('plugin::graphql.endpoint');
    seen.endpointDotted = strapi.config.get('plugin.graphql.endpoint');
    seen.pluginConfig = strapi.plugin('graphql').config('endpoint');
    seen.prefix = strapi.config.get('api.rest.prefix');
    seen.missing = strapi.config.get('server.nothing.here', 'default');
    seen.samePolicy = strapi.policy('trail') === app.policy('global::trail');
    seen.sameMiddleware = strapi.middleware('trail-header') === app.middleware('global::trail-header');
    for (const [key, run] of Object.entries({
      unknownPlugin: () => strapi.plugin('nope'),
      unknownService: () => strapi.plugin('graphql').service('nope'),
    })) {
      try { run(); } catch (err) { seen[key] = err.message; }
    }
    app.server.route({ method: 'GET', path: '/seen', config: { auth: false }, handler: (ctx) => { ctx.body = seen; } });
  },
  async bootstrap({ strapi }) {
    await strapi.documents('api::note.note').create({ data: { title: 'from bootstrap' } });
    seen.bootstrapCount = await strapi.documents('api::note.note').count();
    seen.log = typeof strapi.log.info;
  },
};`,
};

/** A plugin's own policy and middleware, as `plugin::gate.*`. */
const gate = definePlugin({
  name: 'gate',
  policies: {
    open: (ctx: PolicyContext) => {
      ((ctx.state as { trail?: string[] }).trail ??= []).push('plugin');
      return true;
    },
  },
  middlewares: {
    stamp: (options: unknown) => async (ctx: RequestContext, next: () => Promise<void>) => {
      ((ctx.state.trail as string[] | undefined) ??= []).push(`plugin-mw:${(options as { label: string }).label}`);
      await next();
    },
  },
  register: () => ({}),
});

const policyEnvelope = (message: string) => ({
  data: null,
  error: { status: 403, name: 'PolicyError', message, details: {} },
});

let t: TestApp;
const count = async (table: string): Promise<number> =>
  Number((await t.sql(table).count<{ count: string }[]>('* as count'))[0].count);

beforeAll(async () => {
  t = await startApp({ appDir: await writeApp({ contentTypes, files: FILES }), plugins: [gate] });
});
afterAll(async () => {
  await t?.close();
});

describe('REST route policies and middlewares', () => {
  it('runs auth, then policies (every registry source), then middlewares in order, then the controller', async () => {
    const res = await t.request('GET', '/api/articles');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-trail')?.split(',')).toEqual([
      'global',
      'koa:true:false:koa:api-token:GET',
      'api:{"x":1}',
      'plugin',
      'cjs:0',
      'inline2:function:function',
      'inline3:true:function',
      'mw:header:function:true',
      'tag:a',
      'plugin-mw:b',
      'inline-mw',
      'controller',
    ]);
  });

  it('answers a failing policy with the PolicyError envelope and writes nothing', async () => {
    const before = await count('articles');
    const res = await t.request('POST', '/api/articles', { data: { title: 'refused' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(policyEnvelope('Policy Failed'));
    expect(await count('articles')).toBe(before);
  });

  it("answers a Vellum error a policy throws as that error, a policyFailed with the policy's message", async () => {
    const created = await t.app.documents('api::article.article').create({ data: { title: 'kept' } });
    const res = await t.request('PUT', `/api/articles/${created.documentId}`, { data: { title: 'changed' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'The policy says the title is wrong',
      details: {},
    });
    const kept = await t.app.documents('api::article.article').findOne({ documentId: String(created.documentId) });
    expect(kept?.title).toBe('kept');
    const one = await t.request('GET', `/api/articles/${created.documentId}`);
    expect(one.status).toBe(403);
    expect(one.body).toEqual(policyEnvelope('Only on Tuesdays'));
  });

  it('never runs a policy for a request the auth guard refused', async () => {
    const before = await count('hits');
    expect((await t.request('DELETE', '/api/articles/abc', undefined, { authorization: '' })).status).toBe(401);
    const jwt = await t.userJwt();
    const res = await t.request('DELETE', '/api/articles/abc', undefined, { authorization: `Bearer ${jwt}` });
    expect(res.status).toBe(403);
    expect(res.body.error.name).toBe('ForbiddenError');
    expect(await count('hits')).toBe(before);
    // allowed: the policy runs (then the controller finds no such document)
    expect((await t.request('DELETE', '/api/articles/abc')).status).toBe(404);
    expect(await count('hits')).toBe(before + 1);
  });

  it('registers only the actions `only` keeps, and none that `except` drops', async () => {
    expect((await t.request('GET', '/api/notes')).status).toBe(200);
    expect((await t.request('POST', '/api/notes', { data: { title: 'x' } })).status).toBe(405);
    expect((await t.request('DELETE', '/api/notes/abc')).status).toBe(405);
    const memo = await t.request('POST', '/api/memos', { data: { title: 'm' } });
    expect(memo.status).toBe(201);
    expect((await t.request('GET', '/api/memos')).status).toBe(200);
    expect((await t.request('GET', `/api/memos/${memo.body.data.documentId}`)).status).toBe(404);
    // a type without a routes file keeps every route
    expect((await t.request('POST', '/api/hits', { data: { title: 'h' } })).status).toBe(201);
  });
});

describe('the registries and the strapi facade', () => {
  it('reaches each source by name, a bare name being a global one', () => {
    expect(t.app.policy('trail')).toBe(t.app.policy('global::trail'));
    expect(typeof t.app.policy('api::article.owner')).toBe('function');
    expect(t.app.policy('plugin::gate.open')).toBe(gate.policies?.open);
    expect(t.app.middleware('plugin::gate.stamp')).toBe(gate.middlewares?.stamp);
    expect(typeof t.app.middleware('api::article.tag')).toBe('function');
    expect(() => t.app.policy('owner')).toThrow(/Unknown policy "owner" \(known: .*api::article\.owner/);
    expect(() => t.app.middleware('nope')).toThrow(/Unknown middleware "nope" \(known: .*global::trail-header/);
  });

  it('gives the app lifecycle hooks the facade: plugins, services, config, documents, registries', async () => {
    const res = await t.request('GET', '/seen');
    expect(res.body).toEqual({
      registerExtensionIsTheApis: true,
      services: ['extension'],
      endpoint: '/graphql',
      endpointDotted: '/graphql',
      pluginConfig: '/graphql',
      prefix: '/api',
      missing: 'default',
      samePolicy: true,
      sameMiddleware: true,
      unknownPlugin: expect.stringMatching(/Plugin "nope" is not installed in this app \(installed: .*graphql/),
      unknownService: 'Plugin "graphql" has no service "nope" (services: extension)',
      bootstrapCount: 1,
      log: 'function',
    });
    expect(t.app.strapi.plugin('graphql').service('extension')).toBe(t.app.plugin(graphqlPlugin).extension);
  });

  it("finds a plugin's API by name: a look-alike handle (another copy of the module) works", () => {
    const lookAlike = { ...graphqlPlugin };
    expect(lookAlike).not.toBe(graphqlPlugin);
    expect(t.app.plugin(lookAlike)).toBe(t.app.plugin(graphqlPlugin));
    expect(t.app.hasPlugin(lookAlike)).toBe(true);
    expect(t.app.hasPlugin({ name: 'not-installed' })).toBe(false);
  });
});

describe('start-up failures', () => {
  const appWith = (files: Record<string, string>) =>
    writeApp({ contentTypes: { article: contentTypes.article }, files });

  it('refuses an unknown policy name in a routes file, naming it and the file', async () => {
    const appDir = await appWith({
      'src/api/article/routes/article.ts': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::article.article', { config: { find: { policies: ['is-missing'] } } });`,
    });
    await expect(startApp({ appDir })).rejects.toThrow(
      /routes\/article\.ts find: Unknown policy "is-missing" \(known: .*\)/,
    );
  });

  it('refuses an unknown middleware name in a routes file', async () => {
    const appDir = await appWith({
      'src/api/article/routes/article.ts': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::article.article', {
  config: { find: { middlewares: ['global::nope'] } },
});`,
    });
    await expect(startApp({ appDir })).rejects.toThrow(/article\.ts find: Unknown middleware "global::nope"/);
  });

  it('refuses a custom routes file, naming it', async () => {
    const appDir = await appWith({
      'src/api/article/routes/custom.ts': `export default { routes: [{ method: 'GET', path: '/x', handler: 'a.b' }] };`,
    });
    await expect(startApp({ appDir })).rejects.toThrow(/routes\/custom\.ts: custom route files are not supported yet/);
  });

  it('refuses a core router for a content-type that does not exist', async () => {
    const appDir = await appWith({
      'src/api/article/routes/article.ts': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::articel.articel');`,
    });
    await expect(startApp({ appDir })).rejects.toThrow(/createCoreRouter\('api::articel\.articel'\): there is no such/);
  });

  it('refuses an unknown action in only', async () => {
    const appDir = await appWith({
      'src/api/article/routes/article.ts': `import { factories } from 'vellum';
export default factories.createCoreRouter('api::article.article', { only: ['findAll'] });`,
    });
    await expect(startApp({ appDir })).rejects.toThrow(/only: unknown action "findAll"/);
  });

  it('refuses a policy module that exports no function', async () => {
    const appDir = await appWith({ 'src/policies/broken.ts': 'export default { handler: 1 };' });
    await expect(startApp({ appDir })).rejects.toThrow(/broken\.ts: a policy must export a function/);
  });
});
