import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { RawConfig } from '../../../../core/config/load.ts';
import { createStrapiFacade, type StrapiFacadeDeps } from '../../../../core/kernel/strapi-facade.ts';

const extension = { use: () => undefined };
const apis: Record<string, unknown> = {
  graphql: { services: { extension }, config: { endpoint: '/graphql', depthLimit: 10 } },
  upload: {},
};
const config = {
  server: { port: 1337, host: '0.0.0.0' },
  plugins: { upload: { config: { sizeLimit: 5 } }, graphql: { config: { endpoint: '/written' } } },
} as unknown as RawConfig;

const deps: StrapiFacadeDeps = {
  config,
  log: pino({ level: 'silent' }),
  documents: (uid) => ({ uid }) as never,
  pluginApi: (name) => ({ found: Object.hasOwn(apis, name), api: apis[name] }),
  pluginNames: () => Object.keys(apis),
  rawPluginConfig: (name) =>
    ((config.plugins[name] as { config?: Record<string, unknown> } | undefined)?.config ?? {}) as never,
  policy: (name) => (name === 'ok' ? () => true : () => false),
  middleware: () => () => null,
};

describe('the Strapi facade', () => {
  const strapi = createStrapiFacade(deps);

  it("reads a plugin's services by name, and refuses an unknown plugin or service", () => {
    expect(strapi.plugin('graphql').service('extension')).toBe(extension);
    expect(strapi.plugin('graphql').services).toEqual({ extension });
    expect(() => strapi.plugin('upload').service('x')).toThrow('Plugin "upload" has no service "x" (services: none)');
    expect(() => strapi.plugin('gql')).toThrow(
      'Plugin "gql" is not installed in this app (installed: graphql, upload)',
    );
  });

  it("reads config by dot path, a plugin's from its parsed config when its API has one", () => {
    expect(strapi.config.get('server.port')).toBe(1337);
    expect(strapi.config.get('server.nope', 'd')).toBe('d');
    expect(strapi.config.get('server.port.deeper', 'd')).toBe('d');
    expect(strapi.config.get('plugin::graphql.endpoint')).toBe('/graphql');
    expect(strapi.config.get('plugin.graphql.depthLimit')).toBe(10);
    expect(strapi.config.get('plugin::upload.sizeLimit')).toBe(5);
    expect(strapi.config.get('plugin::upload')).toEqual({ sizeLimit: 5 });
    expect(strapi.config.get('plugins.graphql.config.endpoint')).toBe('/written');
    expect(strapi.plugin('upload').config('sizeLimit')).toBe(5);
    expect(strapi.plugin('upload').config('missing', 7)).toBe(7);
  });

  it('hands documents and registry lookups to the app', () => {
    expect(strapi.documents('api::a.a')).toEqual({ uid: 'api::a.a' });
    expect((strapi.policy('ok') as () => boolean)()).toBe(true);
    expect(typeof strapi.middleware('x')).toBe('function');
  });
});
