import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configurationError } from '../errors.ts';
import { createEnv, type EnvFn } from './env.ts';
import { deepMerge, type PlainObject } from './merge.ts';

/** The config files an app may have, each `config/<name>.{ts,js,mjs,json}`. */
export const CONFIG_FILES = ['server', 'database', 'api', 'plugins'] as const;
export type ConfigName = (typeof CONFIG_FILES)[number];
export type RawConfig = Record<ConfigName, PlainObject>;

const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.json'];

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/** Load one config file: an object, or `({ env }) => object`, as its default export. */
async function loadFile(dir: string, name: string, env: EnvFn): Promise<PlainObject> {
  for (const ext of EXTENSIONS) {
    const file = path.join(dir, name + ext);
    if (!(await exists(file))) continue;
    let mod: unknown;
    try {
      mod = ext === '.json' ? JSON.parse(await readFile(file, 'utf8')) : await import(pathToFileURL(file).href);
    } catch (err) {
      throw configurationError(`${file}: cannot be loaded: ${(err as Error).message}`);
    }
    let value = (mod as { default?: unknown }).default ?? mod;
    if (typeof value === 'function') value = await (value as (a: { env: EnvFn }) => unknown)({ env });
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw configurationError(`${file}: must export an object or a function returning one`);
    }
    return value as PlainObject;
  }
  return {};
}

/**
 * Load the platform defaults (Vellum's own `config/`) and the app's `config/`, the app
 * winning key by key, both evaluated with the same `env`.
 */
export async function loadConfig(options: {
  platformDir: string;
  appDir: string;
  env: Record<string, string | undefined>;
  overrides?: Partial<Record<ConfigName, PlainObject>>;
}): Promise<RawConfig> {
  const env = createEnv(options.env);
  const out = {} as RawConfig;
  for (const name of CONFIG_FILES) {
    const platform = await loadFile(options.platformDir, name, env);
    const app = await loadFile(path.join(options.appDir, 'config'), name, env);
    out[name] = deepMerge(deepMerge(platform, app), options.overrides?.[name] ?? {});
  }
  return out;
}
