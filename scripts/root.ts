/**
 * Vellum's package root, the folder of its package.json: the repository when run from source,
 * the installed package (node_modules/vellum) when run compiled from its dist/. The CLI finds
 * the app templates and its own version from it, the bench examples/blog and its scripts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${from}`);
  }
}

export const ROOT = packageRoot(path.dirname(fileURLToPath(import.meta.url)));
