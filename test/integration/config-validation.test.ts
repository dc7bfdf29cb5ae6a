import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, type ConfigOverrides } from '../../index.ts';
import { BLOG, startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

/** What `startApp` fails with; the test fails if it starts. */
async function startError(options: Parameters<typeof startApp>[0]): Promise<Error> {
  const err = await startApp(options).then(
    async (t) => {
      await t.close();
      return null;
    },
    (e: Error) => e,
  );
  expect(err, 'the app started').not.toBeNull();
  expect(err).toBeInstanceOf(ConfigurationError);
  return err as Error;
}

/** The label of a value set through createApp's `config` option for the blog app. */
const overridden = (file: string) => `config/${file} (the override given to createApp, app ${BLOG})`;

describe('a bad config value stops start-up, naming its file and key', () => {
  const cases: Array<[string, ConfigOverrides, string]> = [
    [
      'users-permissions',
      { plugins: { 'users-permissions': { config: { ratelimit: { max: 'ten' } } } } },
      `${overridden('plugins')}: users-permissions.config.ratelimit.max: expected number, got "ten"`,
    ],
    [
      'users-permissions roles',
      { plugins: { 'users-permissions': { config: { roles: { editor: { permissions: 'all' } } } } } },
      `${overridden('plugins')}: users-permissions.config.roles.editor.permissions: expected array, got "all"`,
    ],
    [
      'upload',
      { plugins: { upload: { config: { sizeLimit: '10mb' } } } },
      `${overridden('plugins')}: upload.config.sizeLimit: expected number, got "10mb"`,
    ],
    [
      'i18n',
      { plugins: { i18n: { config: { locales: ['en', { code: 'not a code' }] } } } },
      `${overridden('plugins')}: i18n.config.locales[1].code: expected text matching`,
    ],
    ['server', { server: { port: 'eighty' } }, `${overridden('server')}: port: expected number, got "eighty"`],
    [
      'server proxy',
      { server: { proxy: { koa: true, maxIpsCount: 0 } } },
      `${overridden('server')}: proxy.maxIpsCount: expected a number >= 1, got 0`,
    ],
    [
      'database',
      { database: { pool: { min: 0, max: 0 } } },
      `${overridden('database')}: pool.max: expected a number > 0, got 0`,
    ],
    [
      'api',
      { api: { rest: { withCount: 'yes' } } },
      `${overridden('api')}: rest.withCount: expected boolean, got "yes"`,
    ],
  ];
  for (const [name, config, message] of cases) {
    it(`${name}: ${message.slice(message.indexOf(': ') + 2)}`, async () => {
      expect((await startError({ config })).message).toContain(message);
    });
  }

  it("names the app's own config/plugins.ts when the value is written there", async () => {
    const appDir = await writeApp({});
    const file = path.join(appDir, 'config', 'plugins.ts');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "export default { upload: { config: { breakpoints: { large: 'wide' } } } };\n");
    const err = await startError({ appDir });
    // the kernel names the plugin whose register refused its config
    expect(err.message).toBe(
      `Plugin "upload" failed in register: ${file}: upload.config.breakpoints.large: expected number, got "wide"`,
    );
  });

  it("names the file that read a bad variable (PORT): the app's config/server.ts, else Vellum's", async () => {
    const fromBlog = await startError({ env: { PORT: 'abc' } });
    expect(fromBlog.message).toBe(`${path.join(BLOG, 'config', 'server.ts')}: port: expected number, got NaN`);
    const bare = await startError({ appDir: await writeApp({}), env: { PORT: 'abc' } });
    expect(bare.message).toMatch(/\/config\/server\.ts \(Vellum's defaults\): port: expected number, got NaN$/);
    expect(bare.message).not.toContain(BLOG);
  });

  it('lists every problem, one line each', async () => {
    const err = await startError({ config: { server: { shutdownTimeoutMs: -1, body: { jsonLimit: '2 potatoes' } } } });
    expect(err.message.split('\n')).toEqual([
      `${overridden('server')}: body.jsonLimit: expected a size like '2mb' (b, kb, mb, gb), got "2 potatoes"`,
      `${overridden('server')}: shutdownTimeoutMs: expected a number >= 0, got -1`,
    ]);
  });
});

describe('valid configs', () => {
  it('start with keys Vellum does not read (Strapi ignores them too), in the accepted forms', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vellum-config-'));
    const t = await startApp({
      config: {
        server: { proxy: { koa: true, maxIpsCount: 2 }, cron: { enabled: false }, body: { jsonLimit: 1024 * 1024 } },
        database: { embedded: { dataDir: dir }, debug: false },
        api: { rest: { maxLimit: null }, responses: { privateAttributes: [] } },
        plugins: {
          'users-permissions': {
            config: { jwt: { expiresIn: 3600 }, jwtManagement: 'refresh', ratelimit: { enabled: false } },
          },
          i18n: { config: { locales: [{ code: 'fr', name: 'Français' }, 'en'] } },
          upload: { config: { provider: { init: () => ({ upload() {}, delete() {} }) }, actionOptions: {} } },
        },
      },
    });
    try {
      const locales = await t.request('GET', '/api/i18n/locales');
      expect(locales.body.map((l: { name: string; isDefault: boolean }) => [l.name, l.isDefault])).toEqual([
        ['Français', false],
        ['English (en)', true],
      ]);
      // maxLimit: null, so a page of 500 is asked for as is
      expect((await t.request('GET', '/api/tags?pagination[pageSize]=500')).body.meta.pagination.pageSize).toBe(500);
    } finally {
      await t.close();
    }
  });
});
