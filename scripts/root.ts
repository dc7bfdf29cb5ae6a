/** The repository root: the CLI and the bench find examples/blog and each other's scripts from it. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
