/**
 * `vellum new <dir>`: a project that depends on Vellum, from templates/app (shared/, then ts/ or
 * js/): package.json, config/, a first content-type, src/index, a vitest config and a test with
 * the test kit. It reads nothing but the templates and Vellum's own package.json, so it runs
 * before the project has any dependency installed (npx).
 */
import { cp, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './root.ts';
import type { CommandResult } from './token-command.ts';

export const NEW_USAGE = `usage: vellum new <dir> [--js] [--vellum SPEC]

  Create a Vellum project in DIR (a new or empty folder): package.json, config/, a first
  content-type (src/api/article), src/index with the lifecycle hooks, and tests/ with an
  integration test on a real PostgreSQL. TypeScript, or with --js JavaScript (CommonJS).

  --vellum SPEC   the project's dependency on vellum (default ^<this version>): a version range,
                  a tarball or a folder (a path is made absolute, so it works from the project)
`;

/** The fields of Vellum's package.json a new project copies. */
interface OwnPackage {
  version: string;
  engines?: Record<string, string>;
  devDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

const usage = (message: string): CommandResult => ({
  code: 2,
  stdout: [],
  stderr: [`vellum new: ${message}`, '', NEW_USAGE],
});

/** An npm package name from a folder name: lower case, other characters as dashes. */
export function packageName(dir: string): string {
  const name = path
    .basename(path.resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name || 'vellum-app';
}

/**
 * The dependency spec as npm should read it from the project's package.json: a path (given
 * relative to where the command runs) becomes an absolute `file:` spec.
 */
export function vellumSpec(given: string | undefined, version: string, cwd: string): string {
  if (given === undefined) return `^${version}`;
  const file = given.startsWith('file:') ? given.slice('file:'.length) : given;
  const isPath = given.startsWith('file:') || /^(\.{1,2}\/|\/)/.test(given) || given.endsWith('.tgz');
  return isPath ? `file:${path.resolve(cwd, file)}` : given;
}

function projectPackage(name: string, spec: string, own: OwnPackage, js: boolean): Record<string, unknown> {
  const dev = js ? ['vitest'] : ['@types/node', 'typescript', 'vitest'];
  return {
    name,
    version: '0.1.0',
    private: true,
    // TypeScript projects are ES modules; JavaScript ones CommonJS (`module.exports`), as Strapi's
    ...(js ? {} : { type: 'module' }),
    scripts: {
      develop: 'vellum develop',
      start: 'vellum start',
      test: 'vitest run',
      ...(js ? {} : { typecheck: 'tsc' }),
      vellum: 'vellum',
    },
    engines: own.engines,
    dependencies: { vellum: spec },
    // the versions Vellum itself is tested with
    devDependencies: Object.fromEntries(dev.map((d) => [d, own.devDependencies?.[d] ?? '*'])),
    // Vellum's dependencies whose install scripts must run (the PostgreSQL binaries' links)
    allowScripts: own.allowScripts,
  };
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
}

/** Run `vellum new …` in `cwd`; prints nothing itself. */
export async function runNewCommand(argv: string[], cwd: string): Promise<CommandResult> {
  let values: { js?: boolean; vellum?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { js: { type: 'boolean' }, vellum: { type: 'string' } },
    }));
  } catch (err) {
    return usage((err as Error).message);
  }
  if (positionals.length !== 1) return usage('give the folder to create, e.g. vellum new my-app');
  const dir = path.resolve(cwd, positionals[0]);
  if (!(await isEmptyOrMissing(dir))) return { code: 1, stdout: [], stderr: [`vellum new: ${dir} is not empty`] };

  const own = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as OwnPackage;
  const name = packageName(dir);
  const js = values.js === true;
  const spec = vellumSpec(values.vellum, own.version, cwd);
  const templates = path.join(ROOT, 'templates/app');
  await mkdir(dir, { recursive: true });
  await cp(path.join(templates, 'shared'), dir, { recursive: true });
  await cp(path.join(templates, js ? 'js' : 'ts'), dir, { recursive: true });
  // npm leaves a package's .gitignore files out of its tarball: the template's has no dot
  await rename(path.join(dir, 'gitignore'), path.join(dir, '.gitignore'));
  const readme = path.join(dir, 'README.md');
  await writeFile(readme, (await readFile(readme, 'utf8')).replaceAll('{{name}}', name));
  const pkg = projectPackage(name, spec, own, js);
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

  const shown = path.relative(cwd, dir) || '.';
  return {
    code: 0,
    stdout: [
      `Created ${name} (${js ? 'JavaScript' : 'TypeScript'}) in ${dir}, depending on vellum ${spec}. Next:`,
      '',
      `  cd ${shown}`,
      '  npm install',
      '  npm run develop   # serves http://127.0.0.1:1337, restarts when src/ or config/ change',
      '  npm test',
    ],
    stderr: [],
  };
}
