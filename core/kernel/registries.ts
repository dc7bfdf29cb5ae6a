/**
 * Strapi's policies and middlewares registries, per app: the app's own files (`global::<name>`,
 * `api::<api>.<name>`) and what plugins declare (`plugin::<plugin>.<name>`), looked up by name
 * when routes and resolvers are built. A bare name is a global one, as in Strapi.
 */
import path from 'node:path';
import { configurationError } from '../errors.ts';
import type { PolicyHandler } from './policies.ts';
import { importUserModule } from './user-code.ts';
import { modulesIn, subdirectories } from './app-files.ts';

/** What a middleware factory receives besides its options: the app and its Strapi facade. */
export interface MiddlewareDeps {
  strapi: unknown;
  app: unknown;
}

/**
 * A middleware module's export: Strapi's `(options, { strapi }) => middleware`. On REST the
 * result is a koa `(ctx, next)` function; GraphQL uses it as a resolver middleware.
 */
export type MiddlewareFactory = (options: unknown, deps: MiddlewareDeps) => unknown;

/**
 * A list of middleware items, resolved once (when routes or the schema are built): an inline
 * function is used as is; a registered name, `{ name, options }` (or Strapi 5's `{ name, config }`)
 * is its factory called with the options and `deps`, `{}` without any (Strapi's GraphQL uses a bare
 * name as the middleware itself, which never works for a factory: strapi/strapi#22795). A factory
 * that makes nothing gives `passThrough`, as Strapi lets it; anything else than a function fails.
 */
export function resolveMiddlewares<M>(
  items: unknown,
  lookup: (name: string) => MiddlewareFactory,
  deps: MiddlewareDeps,
  where: string,
  passThrough: M,
): M[] {
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw configurationError(`${where}: middlewares must be an array`);
  return items.map((item, i) => {
    if (typeof item === 'function') return item as M;
    const named = typeof item === 'string' ? { name: item } : item;
    if (typeof named !== 'object' || named === null || typeof (named as { name?: unknown }).name !== 'string')
      throw configurationError(`${where}: middleware #${i} must be a name, { name, options } or a function`);
    const { name, options, config } = named as { name: string; options?: unknown; config?: unknown };
    const made = lookup(name)(options ?? config ?? {}, deps);
    if (made === undefined || made === null) return passThrough;
    if (typeof made !== 'function') throw configurationError(`${where}: middleware "${name}" made no function`);
    return made as M;
  });
}

export interface Registries {
  /** the policy a name designates (a bare name is `global::<name>`); unknown → ConfigurationError */
  policy(name: string): PolicyHandler;
  /** the middleware factory a name designates, as `policy` */
  middleware(name: string): MiddlewareFactory;
  /** add one entry under its full name (`global::x`, `api::a.x`, `plugin::p.x`); a second one is refused */
  add(kind: RegistryKind, name: string, value: unknown): void;
}

export type RegistryKind = 'policy' | 'middleware';

/** A bare name means a global one (Strapi's `policy('is-owner')` is `global::is-owner`). */
const fullName = (name: string): string => (name.includes('::') ? name : `global::${name}`);

export function createRegistries(): Registries {
  const entries: Record<RegistryKind, Map<string, unknown>> = { policy: new Map(), middleware: new Map() };

  function get(kind: RegistryKind, name: string): unknown {
    const map = entries[kind];
    const found = map.get(fullName(name));
    if (found !== undefined) return found;
    const known = [...map.keys()].sort().join(', ') || 'none';
    throw configurationError(`Unknown ${kind} "${name}" (known: ${known})`);
  }

  return {
    policy: (name) => get('policy', name) as PolicyHandler,
    middleware: (name) => get('middleware', name) as MiddlewareFactory,
    add(kind, name, value) {
      if (typeof value !== 'function') throw configurationError(`The ${kind} "${name}" must export a function`);
      if (entries[kind].has(name)) throw configurationError(`The ${kind} "${name}" is declared twice`);
      entries[kind].set(name, value);
    },
  };
}

/** Load one folder of the app into a registry, each module under `<prefix><base name>`. */
async function loadFolder(registries: Registries, kind: RegistryKind, dir: string, prefix: string): Promise<void> {
  for (const { name, file } of await modulesIn(dir)) {
    const value = await importUserModule(file).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      throw configurationError(`${file}: cannot be loaded: ${message}`, { cause: err });
    });
    if (typeof value !== 'function') throw configurationError(`${file}: a ${kind} must export a function`);
    registries.add(kind, prefix + name, value);
  }
}

/**
 * The app's policies and middlewares: `src/policies/*` and `src/middlewares/*` (global), and each
 * API's `src/api/<api>/policies/*` and `src/api/<api>/middlewares/*`.
 */
export async function loadAppRegistries(registries: Registries, appDir: string): Promise<void> {
  const src = path.join(appDir, 'src');
  await loadFolder(registries, 'policy', path.join(src, 'policies'), 'global::');
  await loadFolder(registries, 'middleware', path.join(src, 'middlewares'), 'global::');
  for (const api of await subdirectories(path.join(src, 'api'))) {
    await loadFolder(registries, 'policy', path.join(src, 'api', api, 'policies'), `api::${api}.`);
    await loadFolder(registries, 'middleware', path.join(src, 'api', api, 'middlewares'), `api::${api}.`);
  }
}

/** A plugin's own policies and middlewares, as `plugin::<plugin>.<name>`. */
export function addPluginEntries(
  registries: Registries,
  plugin: { name: string; policies?: Record<string, PolicyHandler>; middlewares?: Record<string, MiddlewareFactory> },
): void {
  for (const [name, handler] of Object.entries(plugin.policies ?? {}))
    registries.add('policy', `plugin::${plugin.name}.${name}`, handler);
  for (const [name, factory] of Object.entries(plugin.middlewares ?? {}))
    registries.add('middleware', `plugin::${plugin.name}.${name}`, factory);
}
