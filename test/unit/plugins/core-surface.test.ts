import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PLUGINS = path.join(ROOT, 'plugins');
const SURFACE = path.join(ROOT, 'core', 'index.ts');

/** Every module a source file names: static and type imports, re-exports, dynamic `import('…')`. */
const specifiers = (source: string): string[] =>
  ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);

/**
 * The relative imports of a plugin file that leave `plugins/` for anything but the core's surface:
 * a deep path into core/ (or database/, or the root index, which would be a cycle) ties the plugin
 * to files the core may move.
 */
function forbiddenImports(file: string, source: string): string[] {
  return specifiers(source).filter((spec) => {
    if (!spec.startsWith('.')) return false;
    const target = path.resolve(path.dirname(file), spec);
    const inPlugins = !path.relative(PLUGINS, target).startsWith('..');
    return !inPlugins && target !== SURFACE;
  });
}

async function pluginFiles(dir = PLUGINS): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await pluginFiles(full)));
    else if (/\.(c|m)?[jt]s$/.test(entry.name)) out.push(full);
  }
  return out;
}

describe('plugins reach the core only through core/index.ts', () => {
  it("finds a deep core path in any import form, and accepts the surface and a plugin's own files", () => {
    const file = path.join(PLUGINS, 'upload', 'x.ts');
    const source = [
      "import { notFound } from '../../core/errors.ts';",
      "import type {\n  App,\n} from '../../core/kernel/app.ts';",
      "export { x } from '../../database/connection.ts';",
      "const m = await import('../../core/query/parse.ts');",
      "import { createApp } from '../../core/index.ts';",
      "import { readUploadConfig } from './config.ts';",
      "import { i18nPlugin } from '../i18n/index.ts';",
      "import sharp from 'sharp';",
    ].join('\n');
    expect(forbiddenImports(file, source)).toEqual([
      '../../core/errors.ts',
      '../../core/kernel/app.ts',
      '../../database/connection.ts',
      '../../core/query/parse.ts',
    ]);
  });

  it('holds for every file under plugins/', async () => {
    const files = await pluginFiles();
    // the walk did reach the plugins (an empty list would pass vacuously)
    expect(files).toContain(path.join(PLUGINS, 'users-permissions', 'index.ts'));
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const bad = forbiddenImports(file, await readFile(file, 'utf8'));
      if (bad.length > 0) found[path.relative(ROOT, file)] = bad;
    }
    expect(found).toEqual({});
  });
});
