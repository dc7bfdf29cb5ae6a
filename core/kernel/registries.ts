/**
 * Strapi's policies and middlewares registries, per app: the app's own files (`global::<name>`,
 * `api::<api>.<name>`) and what plugins declare (`plugin::<plugin>.<name>`), looked up by name
 * when routes and resolvers are built. A bare name is a global one, as in Strapi.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { configurationError } from '../errors.ts';
import type { PolicyHandler } from './policies.ts';
import { importUserModule } from './user-code.ts';

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

export interface Registries {
  /** the policy a name designates (a bare name is `global::<name>`); unknown → ConfigurationError */
  policy(name: string): PolicyHandler;
  /** the middleware factory a name designates, as `policy` */
  middleware(name: string): MiddlewareFactory;
  /** add one entry under its full name (`global::x`, `api::a.x`, `plugin::p.x`); a second one is refused */
  add(kind: RegistryKind, name: string, value: unknown): void;
}

export type RegistryKind = 'policy' | 'middleware';

const MODULE = /^(.+)\.(ts|js|mjs|cjs)$/;

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

/** The modules of a folder, by base name (an absent folder has none). */
async function modulesIn(dir: string): Promise<Array<{ name: string; file: string }>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Array<{ name: string; file: string }> = [];
  for (const entry of names.sort()) {
    const m = MODULE.exec(entry);
    if (m && !entry.endsWith('.d.ts')) out.push({ name: m[1], file: path.join(dir, entry) });
  }
  return out;
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
  const apis = await readdir(path.join(src, 'api'), { withFileTypes: true }).catch(() => []);
  for (const api of apis
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
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
