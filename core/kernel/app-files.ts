/**
 * Listing an app's folders in Strapi layout (`src/api/<api>/…`, `src/policies`, …): the same
 * rules for every loader. Sorted, so what is loaded and in which order never depends on the disk.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Whether a file-system error says the path is not there (an absent folder simply has nothing). */
export function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Names of the sub-folders of `dir`, sorted; a missing folder simply has none. */
export async function subdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
}

const MODULE = /^(.+)\.(ts|mts|cts|js|mjs|cjs)$/;

/** The code modules of `dir` (not `.d.ts`), by base name, sorted; a missing folder has none. */
export async function modulesIn(dir: string): Promise<Array<{ name: string; file: string }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isMissing(err)) return [];
    throw err;
  }
  const out: Array<{ name: string; file: string }> = [];
  for (const entry of names.sort()) {
    const m = MODULE.exec(entry);
    if (m && !/\.d\.[mc]?ts$/.test(entry)) out.push({ name: m[1], file: path.join(dir, entry) });
  }
  return out;
}
