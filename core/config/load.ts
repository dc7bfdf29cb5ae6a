import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configurationError } from '../errors.ts';
import { createEnv, type EnvFn } from './env.ts';
import { deepMerge, type PlainObject } from './merge.ts';

/** The config files an app may have, each `config/<name>.{ts,js,mjs,json}` exporting an object. */
export const CONFIG_FILES = ['server', 'database', 'api', 'plugins'] as const;
export type ConfigName = (typeof CONFIG_FILES)[number];
/** Strapi's `config/middlewares`: names (`'strapi::cors'`) and `{ name, config }` entries, in order. */
export type MiddlewaresConfig = unknown[];
export type RawConfig = Record<ConfigName, PlainObject> & { middlewares: MiddlewaresConfig };
/** What a caller (a test) puts over the files, per file. */
export type ConfigOverrides = Partial<Record<ConfigName, PlainObject> & { middlewares: MiddlewaresConfig }>;

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.json'];

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Load one config file: a value of the expected shape, or `({ env }) => value`, as its
 * default export; undefined when the file does not exist.
 */
async function loadFile(dir: string, name: string, env: EnvFn, shape: 'an object' | 'an array'): Promise<unknown> {
  for (const ext of EXTENSIONS) {
    const file = path.join(dir, name + ext);
    if (!(await exists(file))) continue;
    let mod: unknown;
    try {
      mod = ext === '.json' ? JSON.parse(await readFile(file, 'utf8')) : await import(pathToFileURL(file).href);
    } catch (err) {
      throw configurationError(`${file}: cannot be loaded: ${(err as Error).message}`, { cause: err });
    }
    let value = (mod as { default?: unknown }).default ?? mod;
    if (typeof value === 'function') value = await (value as (a: { env: EnvFn }) => unknown)({ env });
    const object = value !== null && typeof value === 'object' && !Array.isArray(value);
    const fits = shape === 'an array' ? Array.isArray(value) : object;
    if (!fits) throw configurationError(`${file}: must export ${shape} or a function returning one`);
    return value;
  }
  return undefined;
}

/**
 * Load the platform defaults (Vellum's own `config/`) and the app's `config/`, the app
 * winning key by key, both evaluated with the same `env`.
 */
export async function loadConfig(options: {
  platformDir: string;
  appDir: string;
  env: Record<string, string | undefined>;
  overrides?: ConfigOverrides;
}): Promise<RawConfig> {
  const env = createEnv(options.env);
  const appConfigDir = path.join(options.appDir, 'config');
  const out = {} as RawConfig;
  for (const name of CONFIG_FILES) {
    const platform = ((await loadFile(options.platformDir, name, env, 'an object')) ?? {}) as PlainObject;
    const app = ((await loadFile(appConfigDir, name, env, 'an object')) ?? {}) as PlainObject;
    out[name] = deepMerge(deepMerge(platform, app), options.overrides?.[name] ?? {});
  }
  // a list is not merged: the app's replaces the platform's whole, as an app's replaces Strapi's default
  out.middlewares = (options.overrides?.middlewares
    ?? (await loadFile(appConfigDir, 'middlewares', env, 'an array'))
    ?? (await loadFile(options.platformDir, 'middlewares', env, 'an array'))
    ?? []) as MiddlewaresConfig;
  return out;
}
