import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../../../../core/errors.ts';
import { loadConfig } from '../../../../core/config/load.ts';
import { expected, parseConfig } from '../../../../core/config/validate.ts';

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigurationError);
    return (err as Error).message;
  }
  throw new Error('no ConfigurationError');
};

describe('parseConfig', () => {
  const schema = z.object({
    max: z.number().int().positive().default(10),
    names: z.array(z.string()).default([]),
    provider: z
      .union([
        z.string(),
        z.custom<{ init(): void }>((v) => typeof (v as { init?: unknown })?.init === 'function', {
          message: expected('a module with init()'),
        }),
      ])
      .optional(),
  });

  it('returns the parsed value with defaults, and ignores unknown keys', () => {
    expect(parseConfig(schema, { other: 1 }, { name: 'plugins', key: ['x', 'config'] })).toEqual({
      max: 10,
      names: [],
    });
  });

  it('names the file and the full key path, with what was expected and what was given', () => {
    expect(failure(() => parseConfig(schema, { max: 'ten' }, { name: 'plugins', key: ['x', 'config'] }))).toBe(
      'config/plugins: x.config.max: expected number, got "ten"',
    );
    expect(failure(() => parseConfig(schema, { names: ['a', 2] }, { name: 'plugins', key: ['x', 'config'] }))).toBe(
      'config/plugins: x.config.names[1]: expected string, got 2',
    );
    expect(failure(() => parseConfig(schema, { max: 0 }, { name: 'api' }))).toBe(
      'config/api: max: expected a number > 0, got 0',
    );
  });

  it('reads alternatives as one expectation', () => {
    expect(failure(() => parseConfig(schema, { provider: 3 }, { name: 'plugins' }))).toBe(
      'config/plugins: provider: expected string or a module with init(), got 3',
    );
  });

  it('asks the sources which file set the key', () => {
    const sources = { describe: (name: string, key: ReadonlyArray<string | number>) => `<${name}:${key.join('/')}>` };
    expect(failure(() => parseConfig(schema, { max: 'x' }, { name: 'server', key: ['a'], sources }))).toBe(
      '<server:a/max>: a.max: expected number, got "x"',
    );
  });
});

describe('loadConfig sources', () => {
  it("attribute a key to the last layer that set it: overrides, then the app's file, then Vellum's", async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'vellum-sources-'));
    const platformDir = path.join(root, 'platform');
    const appDir = path.join(root, 'app');
    await mkdir(platformDir);
    await mkdir(path.join(appDir, 'config'), { recursive: true });
    await writeFile(path.join(platformDir, 'server.ts'), 'export default { port: 1, host: "h", body: { a: 1 } };\n');
    await writeFile(path.join(appDir, 'config', 'server.ts'), 'export default { host: "app", body: { b: 2 } };\n');
    const { config, sources } = await loadConfig({
      platformDir,
      appDir,
      env: {},
      overrides: { server: { body: { c: 3 } } },
    });
    expect(config.server).toEqual({ port: 1, host: 'app', body: { a: 1, b: 2, c: 3 } });
    const appFile = path.join(appDir, 'config', 'server.ts');
    expect(sources.describe('server', ['port'])).toBe(`${path.join(platformDir, 'server.ts')} (Vellum's defaults)`);
    expect(sources.describe('server', ['host'])).toBe(appFile);
    expect(sources.describe('server', ['body', 'b'])).toBe(appFile);
    expect(sources.describe('server', ['body', 'c'])).toBe(
      `config/server (the override given to createApp, app ${appDir})`,
    );
    // a key below one a layer set (body.b.deep): that layer
    expect(sources.describe('server', ['body', 'b', 'deep'])).toBe(appFile);
    // a key nobody set: the app's file, where it would go; no app file: the app's folder
    expect(sources.describe('server', ['missing'])).toBe(appFile);
    expect(sources.describe('plugins', ['x'])).toBe(`config/plugins (app ${appDir}, no such file)`);
  });
});
