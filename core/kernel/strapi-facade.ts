/**
 * A small Strapi-compatible view of one app, so code ported from Strapi (`strapi.plugin('graphql')
 * .service('extension')`, `strapi.documents(uid)`, `strapi.config.get(…)`) runs unchanged. It is
 * made per app and handed to lifecycle hooks, policies and middlewares: never a global.
 */
import type { Logger } from 'pino';
import type { RawConfig } from '../config/load.ts';
import { isPlainObject, type PlainObject } from '../config/merge.ts';
import type { DocumentApi } from '../documents/types.ts';
import { configurationError } from '../errors.ts';
import type { PolicyHandler } from './policies.ts';
import type { MiddlewareFactory } from './registries.ts';

/**
 * The services of each plugin by name, for the types of `strapi.plugin(name).service(name)`:
 * a plugin adds its own with `declare module` (the GraphQL plugin declares `graphql.extension`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by plugins' declaration merging
export interface PluginServices {}

/** `strapi.plugin(name)`: a plugin's services and config. */
export interface StrapiPluginFacade<Services = Record<string, unknown>> {
  /** one of the services the plugin's API lists in `services` (unknown → ConfigurationError) */
  service<K extends keyof Services & string>(name: K): Services[K];
  service(name: string): unknown;
  /** every service of the plugin, by name */
  readonly services: Readonly<Record<string, unknown>>;
  /** a value of the plugin's config by dot path (its parsed config when its API has one) */
  config(path: string, defaultValue?: unknown): unknown;
}

/** The members of Strapi's `strapi` object Vellum offers. */
export interface StrapiFacade {
  /** an installed plugin by name (unknown → ConfigurationError listing the installed ones) */
  plugin<N extends keyof PluginServices & string>(name: N): StrapiPluginFacade<PluginServices[N]>;
  plugin(name: string): StrapiPluginFacade;
  /** the document service of one content-type: `app.documents(uid)` */
  documents(uid: string): DocumentApi;
  /** the app's logger */
  readonly log: Logger;
  /** the app's config: `server.port`, `plugin::graphql.endpoint` or `plugin.graphql.endpoint` */
  readonly config: { get(path: string, defaultValue?: unknown): unknown };
  /** a registered policy (`app.policy`) */
  policy(name: string): PolicyHandler;
  /** a registered middleware factory (`app.middleware`) */
  middleware(name: string): MiddlewareFactory;
}

export interface StrapiFacadeDeps {
  config: RawConfig;
  log: Logger;
  documents: (uid: string) => DocumentApi;
  /** the API a plugin registered, by name; undefined when it is not installed (or not registered yet) */
  pluginApi(name: string): { found: boolean; api: unknown };
  /** the names of the installed plugins, for messages */
  pluginNames(): string[];
  /** a plugin's config as written in config/plugins */
  rawPluginConfig(name: string): PlainObject;
  policy(name: string): PolicyHandler;
  middleware(name: string): MiddlewareFactory;
}

/** A value by dot path (`a.b.c`), or the default when any step is missing. */
function readPath(root: unknown, dotted: string, defaultValue: unknown): unknown {
  let value = root;
  for (const key of dotted.split('.').filter((k) => k !== '')) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return defaultValue;
    value = value[key];
  }
  return value === undefined ? defaultValue : value;
}

/** `plugin::graphql.endpoint` and `plugin.graphql.endpoint` → ['graphql', 'endpoint']. */
const PLUGIN_PATH = /^plugin(?:::|\.)([^.]+)(?:\.(.*))?$/;

export function createStrapiFacade(deps: StrapiFacadeDeps): StrapiFacade {
  // a plugin's parsed config (its API's `config`) carries its defaults; else the file's as written
  const pluginConfig = (name: string): unknown => {
    const { api } = deps.pluginApi(name);
    const parsed = (api as { config?: unknown } | undefined)?.config;
    return isPlainObject(parsed) ? parsed : deps.rawPluginConfig(name);
  };

  function plugin(name: string): StrapiPluginFacade {
    const { found, api } = deps.pluginApi(name);
    if (!found) {
      const installed = deps.pluginNames().join(', ') || 'none';
      throw configurationError(`Plugin "${name}" is not installed in this app (installed: ${installed})`);
    }
    const raw = (api as { services?: unknown } | undefined)?.services;
    const services: Record<string, unknown> = isPlainObject(raw) ? raw : {};
    // the overloads' types are the plugins' declarations; at run time every name reads `services`
    return {
      services,
      service: ((service: string): unknown => {
        if (Object.hasOwn(services, service)) return services[service];
        const known = Object.keys(services).join(', ') || 'none';
        throw configurationError(`Plugin "${name}" has no service "${service}" (services: ${known})`);
      }) as StrapiPluginFacade['service'],
      config: (path, defaultValue) => readPath(pluginConfig(name), path, defaultValue),
    };
  }

  return {
    plugin,
    documents: (uid) => deps.documents(uid),
    log: deps.log,
    config: {
      get(path, defaultValue) {
        const m = PLUGIN_PATH.exec(path);
        if (m) return readPath(pluginConfig(m[1]), m[2] ?? '', defaultValue);
        return readPath(deps.config, path, defaultValue);
      },
    },
    policy: (name) => deps.policy(name),
    middleware: (name) => deps.middleware(name),
  };
}
