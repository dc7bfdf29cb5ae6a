import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { configurationError } from '../errors.ts';
import { importUserModule } from '../kernel/user-code.ts';
import { createEnv, type EnvFn } from './env.ts';
import { deepMerge, isPlainObject, type PlainObject } from './merge.ts';
import type { ConfigKey, ConfigSources } from './validate.ts';

/** The config files an app may have, each `config/<name>.{ts,js,mjs,cjs,json}` exporting an object. */
export const CONFIG_FILES = ['server', 'database', 'api', 'plugins'] as const;
export type ConfigName = (typeof CONFIG_FILES)[number];
/** Strapi's `config/middlewares`: names (`'strapi::cors'`) and `{ name, config }` entries, in order. */
export type MiddlewaresConfig = unknown[];
export type RawConfig = Record<ConfigName, PlainObject> & { middlewares: MiddlewaresConfig };
/** What a caller (a test) puts over the files, per file. */
export type ConfigOverrides = Partial<Record<ConfigName, PlainObject> & { middlewares: MiddlewaresConfig }>;

const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'];

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
  return (await loadFileAt(dir, name, env, shape))?.value;
}

/** `loadFile`, with the path of the file read. */
async function loadFileAt(
  dir: string,
  name: string,
  env: EnvFn,
  shape: 'an object' | 'an array',
): Promise<{ file: string; value: unknown } | undefined> {
  for (const ext of EXTENSIONS) {
    const file = path.join(dir, name + ext);
    if (!(await exists(file))) continue;
    let value: unknown;
    try {
      value = ext === '.json' ? JSON.parse(await readFile(file, 'utf8')) : await importUserModule(file);
    } catch (err) {
      throw configurationError(`${file}: cannot be loaded: ${(err as Error).message}`, { cause: err });
    }
    if (typeof value === 'function') value = await (value as (a: { env: EnvFn }) => unknown)({ env });
    const object = value !== null && typeof value === 'object' && !Array.isArray(value);
    const fits = shape === 'an array' ? Array.isArray(value) : object;
    if (!fits) throw configurationError(`${file}: must export ${shape} or a function returning one`);
    return { file, value };
  }
  return undefined;
}

/** One layer of a config file, as merged: a file of Vellum's, of the app's, or the caller's overrides. */
interface Layer {
  label: string;
  value: PlainObject;
  app?: true;
}

const valueAt = (value: unknown, key: ConfigKey): unknown =>
  key.reduce<unknown>(
    (v, k) => (isPlainObject(v) || Array.isArray(v) ? (v as PlainObject)[String(k)] : undefined),
    value,
  );

/**
 * Which layer set a key: the last one defining the longest part of its path (the merge let later
 * layers win key by key, and a value that is not an object replaced the object below it whole).
 */
function createSources(layers: Record<ConfigName, Layer[]>, appDir: string): ConfigSources {
  return {
    describe(name, key) {
      for (let n = key.length; n > 0; n -= 1) {
        const prefix = key.slice(0, n);
        const setBy = layers[name].filter((l) => valueAt(l.value, prefix) !== undefined).at(-1);
        if (setBy) return setBy.label;
      }
      // nothing set it (a key the schema requires): where the app would set it
      return layers[name].find((l) => l.app)?.label ?? `config/${name} (app ${appDir}, no such file)`;
    },
  };
}

/** The merged config and where each of its values came from. */
export interface LoadedConfig {
  config: RawConfig;
  sources: ConfigSources;
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
}): Promise<LoadedConfig> {
  const env = createEnv(options.env);
  const appConfigDir = path.join(options.appDir, 'config');
  const out = {} as RawConfig;
  const layers = {} as Record<ConfigName, Layer[]>;
  for (const name of CONFIG_FILES) {
    const platform = await loadFileAt(options.platformDir, name, env, 'an object');
    const app = await loadFileAt(appConfigDir, name, env, 'an object');
    const override = options.overrides?.[name];
    const overridden = `config/${name} (the override given to createApp, app ${options.appDir})`;
    layers[name] = [
      ...(platform ? [{ label: `${platform.file} (Vellum's defaults)`, value: platform.value as PlainObject }] : []),
      ...(app ? [{ label: app.file, value: app.value as PlainObject, app: true as const }] : []),
      ...(override ? [{ label: overridden, value: override }] : []),
    ];
    const files = deepMerge((platform?.value ?? {}) as PlainObject, (app?.value ?? {}) as PlainObject);
    out[name] = deepMerge(files, override ?? {});
  }
  // a list is not merged: the app's replaces the platform's whole, as an app's replaces Strapi's default
  out.middlewares = (options.overrides?.middlewares ??
    (await loadFile(appConfigDir, 'middlewares', env, 'an array')) ??
    (await loadFile(options.platformDir, 'middlewares', env, 'an array')) ??
    []) as MiddlewaresConfig;
  return { config: out, sources: createSources(layers, options.appDir) };
}
