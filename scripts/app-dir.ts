import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './root.ts';

/**
 * The app a command works on without `--app`: the current folder (a project made by `vellum new`),
 * except in Vellum's own repository, whose `npm start` serves examples/blog.
 */
export function defaultAppDir(cwd: string = process.cwd()): string {
  const example = path.join(ROOT, 'examples/blog');
  return path.resolve(cwd) === ROOT && existsSync(example) ? example : path.resolve(cwd);
}
