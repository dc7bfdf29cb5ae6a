import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { pino } from 'pino';
import { createVellumApp, definePlugin, ConfigurationError } from '../../index.ts';
import { createApp } from '../../core/kernel/app.ts';
import { startApp, BLOG } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';
import { createTestDatabase } from '../../database/test-database.ts';
import { createConnection } from '../../database/connection.ts';

const quiet = pino({ level: 'silent' });

const note = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes' },
  attributes: { text: { type: 'string' } },
};

describe('two apps in one process', () => {
  it('serve different schemas and databases side by side without sharing state', async () => {
    const blog = await startApp();
    const notes = await startApp({ appDir: await writeApp({ contentTypes: { note } }) });
    try {
      expect((await blog.request('POST', '/api/tags', { data: { name: 'only-in-blog' } })).status).toBe(201);
      expect((await notes.request('POST', '/api/notes', { data: { text: 'only-in-notes' } })).status).toBe(201);
      expect((await notes.request('GET', '/api/tags')).status).toBe(404);
      expect((await blog.request('GET', '/api/notes')).status).toBe(404);
      expect((await blog.request('GET', '/api/tags')).body.data.map((d: { name: string }) => d.name)).toEqual([
        'only-in-blog',
      ]);
      expect((await notes.request('GET', '/api/notes')).body.data.map((d: { text: string }) => d.text)).toEqual([
        'only-in-notes',
      ]);
      expect(blog.database.name).not.toBe(notes.database.name);
    } finally {
      await blog.close();
      await notes.close();
    }
    // closing one app left the other's pool and server untouched until its own close
  });
});

describe('plugin lifecycle', () => {
  it('runs register → table sync → bootstrap → destroy (reverse), with typed handles', async () => {
    const events: string[] = [];
    const base = definePlugin({
      name: 'base',
      register: () => {
        events.push('register base');
        return { greet: (who: string) => `hello ${who}` };
      },
      bootstrap: async (app) => {
        // tables exist by bootstrap
        const { rows } = await app.db.raw(`select to_regclass('notes') as t`);
        events.push(`bootstrap base (notes table: ${rows[0].t})`);
      },
      destroy: () => {
        events.push('destroy base');
      },
    });
    const dependent = definePlugin({
      name: 'dependent',
      dependencies: ['base'],
      register: (app) => {
        events.push(`register dependent: ${app.plugin(base).greet('dependent')}`);
      },
      bootstrap: () => {
        events.push('bootstrap dependent');
      },
      destroy: () => {
        events.push('destroy dependent');
      },
    });
    const appDir = await writeApp({ contentTypes: { note } });
    // dependencies order the plugins even when listed the other way round
    const t = await startApp({ appDir, plugins: [dependent, base] });
    await t.close();
    expect(events).toEqual([
      'register base',
      'register dependent: hello dependent',
      'bootstrap base (notes table: notes)',
      'bootstrap dependent',
      'destroy dependent',
      'destroy base',
    ]);
  });

  it('fails before any plugin code runs when a dependency is missing, naming both plugins', async () => {
    let ran = false;
    const lonely = definePlugin({
      name: 'lonely',
      dependencies: ['sitemap'],
      register: () => {
        ran = true;
      },
    });
    const attempt = createVellumApp({ appDir: BLOG, plugins: [lonely], logger: quiet, env: {} });
    await expect(attempt).rejects.toThrow(ConfigurationError);
    await expect(attempt).rejects.toThrow('Plugin "lonely" depends on plugin "sitemap", which is not installed');
    expect(ran).toBe(false);
  });

  it("calls the app's own src/index register and bootstrap, and lets it add document middleware", async () => {
    const appDir = await writeApp({
      contentTypes: { note },
      files: {
        'src/index.ts':
          `export default {
  register({ app }) {
    app.documents.use(async (ctx, next) => {
      const result = await next();
      if (ctx.action === 'create' && ctx.uid === 'api::note.note') app.log.info('created');
      return result;
    });
    app.documents.use(async (ctx, next) => {
      if (ctx.action === 'create' && ctx.uid === 'api::note.note') ` +
          `ctx.params.data = { ...ctx.params.data, text: String(ctx.params.data.text).toUpperCase() };
      return next();
    });
  },
  async bootstrap({ app }) {
    await app.documents('api::note.note').create({ data: { text: 'seeded in bootstrap' } });
  },
};
`,
      },
    });
    const t = await startApp({ appDir });
    try {
      const list = await t.request('GET', '/api/notes');
      expect(list.body.data.map((n: { text: string }) => n.text)).toEqual(['SEEDED IN BOOTSTRAP']);
      const created = await t.request('POST', '/api/notes', { data: { text: 'via rest' } });
      expect(created.body.data.text).toBe('VIA REST');
    } finally {
      await t.close();
    }
  });

  it('can disable a built-in plugin from config/plugins', async () => {
    const t = await startApp({ config: { plugins: { rest: { enabled: false } } } });
    try {
      expect((await t.request('GET', '/api/articles')).status).toBe(404);
      expect((await t.request('GET', '/_health')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('schema errors stop the app at start', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    [
      'unknown attribute type',
      { bad: { type: 'strnig' } },
      /src\/api\/thing\/content-types\/thing\/schema\.json: attribute "bad" has unknown type "strnig"/,
    ],
    [
      'unknown relation target',
      { owner: { type: 'relation', relation: 'manyToOne', target: 'api::nobody.nobody' } },
      /schema\.json: attribute "owner".*api::nobody\.nobody/,
    ],
    [
      'unknown component',
      { part: { type: 'component', component: 'shared.nothing' } },
      /schema\.json: attribute "part".*shared\.nothing/,
    ],
    ['bad enumeration', { kind: { type: 'enumeration', enum: [] } }, /schema\.json: attribute "kind"/],
  ];
  it.each(cases)('%s', async (_name, attributes, message) => {
    const appDir = await writeApp({
      contentTypes: {
        thing: {
          kind: 'collectionType',
          collectionName: 'things',
          info: { singularName: 'thing', pluralName: 'things' },
          attributes,
        },
      },
    });
    const app = await createVellumApp({ appDir, logger: quiet, env: {}, databaseUrl: inject('databaseAdminUrl') });
    await expect(app.start()).rejects.toThrow(message);
    await app.destroy();
  });
});

describe('config files', () => {
  it("evaluates the app's config functions with env() and merges them over the platform defaults", async () => {
    const appDir = await writeApp({
      contentTypes: { note },
      files: {
        'config/api.ts':
          `export default ({ env }) => ({ rest: { defaultLimit: env.int('NOTES_LIMIT', 25), ` +
          `maxLimit: env.int('NOTES_MAX', 100) } });`,
        'config/server.json': JSON.stringify({ shutdownTimeoutMs: 1234 }),
      },
    });
    // without any plugin nothing authenticates requests: the app opts in to an open API (here, by env)
    const env = { NOTES_LIMIT: '2', NOTES_MAX: '3', VELLUM_OPEN_API: 'true' };
    const app = await createApp({ appDir, plugins: [], logger: quiet, env });
    expect(app.config.api).toMatchObject({ rest: { prefix: '/api', defaultLimit: 2, maxLimit: 3, withCount: true } });
    expect(app.config.server).toMatchObject({ shutdownTimeoutMs: 1234, port: 1337, host: '0.0.0.0', openApi: true });
    await app.destroy();
  });

  it('answers with the configured default and maximum page sizes', async () => {
    const t = await startApp({ config: { api: { rest: { defaultLimit: 2, maxLimit: 3 } } } });
    try {
      for (let i = 0; i < 5; i++) await t.request('POST', '/api/tags', { data: { name: `limit-${i}` } });
      expect((await t.request('GET', '/api/tags')).body.meta.pagination).toEqual({
        page: 1,
        pageSize: 2,
        pageCount: 3,
        total: 5,
      });
      expect((await t.request('GET', '/api/tags?pagination[pageSize]=50')).body.data).toHaveLength(3);
      expect((await t.request('GET', '/api/tags?pagination[limit]=-1')).body.meta.pagination).toEqual({
        start: 0,
        limit: 3,
        total: 5,
      });
    } finally {
      await t.close();
    }
  });
});

// apps without users-permissions must opt in to an open API (core/auth/open-api.ts)
const OPEN = { VELLUM_OPEN_API: 'true' };

describe('start-up failures', () => {
  it('name a plugin whose register throws (its error the cause), destroying those registered before it', async () => {
    const events: string[] = [];
    const boom = new Error('boom');
    const first = definePlugin({
      name: 'first',
      register: () => {
        events.push('register first');
      },
      destroy: () => {
        events.push('destroy first');
      },
    });
    const broken = definePlugin({
      name: 'broken',
      register: () => {
        throw boom;
      },
      destroy: () => {
        events.push('destroy broken');
      },
    });
    const appDir = await writeApp({ contentTypes: { note } });
    const app = await createApp({ appDir, plugins: [first, broken], logger: quiet, env: OPEN });
    const failure = await app.start().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect(failure).toMatchObject({
      message: 'Plugin "broken" failed in register: boom',
      code: 'PLUGIN_FAILED',
      cause: boom,
    });
    await app.destroy();
    expect(events).toEqual(['register first', 'destroy first']);
  });

  it('leave the app failed after a bootstrap throws: start(), listen() refuse; destroy() closes the pool', async () => {
    const database = await createTestDatabase(inject('databaseAdminUrl'));
    const admin = createConnection({ connection: inject('databaseAdminUrl'), pool: { min: 0, max: 1 } });
    const sessions = async (): Promise<number> =>
      Number(
        (await admin.raw('SELECT count(*) AS n FROM pg_stat_activity WHERE datname = ?', [database.name])).rows[0].n,
      );
    try {
      let bootstraps = 0;
      const broken = definePlugin({
        name: 'broken',
        register: () => undefined,
        bootstrap: async (app) => {
          bootstraps++;
          await app.db.raw('select 1');
          throw new Error('no seeds today');
        },
      });
      const appDir = await writeApp({ contentTypes: { note } });
      const app = await createApp({ appDir, plugins: [broken], logger: quiet, env: OPEN, databaseUrl: database.url });
      await expect(app.start()).rejects.toThrow('Plugin "broken" failed in bootstrap: no seeds today');
      // the failed start opened the pool: it is still there, for destroy() to close
      expect(await sessions()).toBeGreaterThan(0);
      for (const again of [() => app.start(), () => app.listen({ port: 0, host: '127.0.0.1' })]) {
        const err = await again().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ConfigurationError);
        expect(err).toMatchObject({
          code: 'APP_FAILED',
          message:
            'The app failed to start (Plugin "broken" failed in bootstrap: no seeds today); ' +
            'destroy it and create a new one',
        });
      }
      // nothing ran again: no second bootstrap, no server
      expect(bootstraps).toBe(1);
      await app.destroy();
      expect(await sessions()).toBe(0);
      await expect(app.start()).rejects.toThrow('The app was destroyed; create a new one');
    } finally {
      await admin.destroy();
      await database.drop();
    }
  });

  it('share one start between concurrent start() and listen() calls: listen() waits for it', async () => {
    const database = await createTestDatabase(inject('databaseAdminUrl'));
    let registers = 0;
    const pinged = definePlugin({
      name: 'pinged',
      register: (app) => {
        registers++;
        const handler = (ctx: { body: unknown }): void => {
          ctx.body = { pong: true };
        };
        app.server.route({ method: 'GET', path: '/ping', handler, config: { auth: false } });
      },
    });
    const appDir = await writeApp({ contentTypes: { note } });
    const app = await createApp({ appDir, plugins: [pinged], logger: quiet, env: OPEN, databaseUrl: database.url });
    try {
      const [, { url }] = await Promise.all([app.start(), app.listen({ port: 0, host: '127.0.0.1' }), app.start()]);
      expect(registers).toBe(1);
      expect(await (await fetch(`${url}/ping`)).json()).toEqual({ pong: true });
    } finally {
      await app.destroy();
      await database.drop();
    }
  });
});
