/**
 * Reads an app's schema files (Strapi layout) into the typed model. Only shapes are settled
 * here (uids, defaults, where each schema came from); whether a schema makes sense is
 * `validate-schema.ts`'s job, so every file is read before anything is judged.
 */
import { readdir, readFile } from 'node:fs/promises';
import { isMissing, subdirectories } from '../kernel/app-files.ts';
import path from 'node:path';
import { configurationError } from '../errors.ts';
import type { Attributes, Component, ContentType } from './types.ts';

/** Everything an app declares in its `src` folder, sorted by uid. */
export interface LoadedSchemas {
  contentTypes: ContentType[];
  components: Component[];
}

/** Load every content-type under `src/api` and every component under `src/components`, sorted by uid. */
export async function loadAppSchemas(appDir: string): Promise<LoadedSchemas> {
  const [contentTypes, components] = await Promise.all([loadContentTypes(appDir), loadComponents(appDir)]);
  return { contentTypes: contentTypes.sort(byUid), components: components.sort(byUid) };
}

async function loadContentTypes(appDir: string): Promise<ContentType[]> {
  const apiDir = path.join(appDir, 'src', 'api');
  const result: ContentType[] = [];
  for (const apiName of await subdirectories(apiDir)) {
    const ctRoot = path.join(apiDir, apiName, 'content-types');
    for (const ctName of await subdirectories(ctRoot)) {
      const file = path.join(ctRoot, ctName, 'schema.json');
      const raw = await readJsonObject(appDir, file);
      // A content-type folder without schema.json (e.g. only lifecycles) declares nothing.
      if (raw === undefined) continue;
      result.push({
        uid: `api::${apiName}.${ctName}`,
        kind: raw.kind as ContentType['kind'],
        collectionName: raw.collectionName as string,
        info: (raw.info ?? {}) as ContentType['info'],
        options: (raw.options ?? {}) as ContentType['options'],
        pluginOptions: (raw.pluginOptions ?? {}) as ContentType['pluginOptions'],
        attributes: (raw.attributes ?? {}) as Attributes,
        origin: 'api',
        source: relativeSource(appDir, file),
      });
    }
  }
  return result;
}

async function loadComponents(appDir: string): Promise<Component[]> {
  const root = path.join(appDir, 'src', 'components');
  const result: Component[] = [];
  for (const category of await subdirectories(root)) {
    const entries = await readdir(path.join(root, category), { withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      const name = entry.name.slice(0, -'.json'.length);
      const file = path.join(root, category, entry.name);
      const raw = await readJsonObject(appDir, file);
      if (raw === undefined) continue;
      result.push({
        uid: `${category}.${name}`,
        category,
        // Strapi always writes one; the fallback only keeps hand-written files loadable.
        collectionName: (raw.collectionName ?? defaultComponentTable(category, name)) as string,
        info: (raw.info ?? {}) as Component['info'],
        attributes: (raw.attributes ?? {}) as Attributes,
        source: relativeSource(appDir, file),
      });
    }
  }
  return result;
}

/** Parse a JSON file that must hold an object; `undefined` when the file does not exist. */
async function readJsonObject(appDir: string, file: string): Promise<Record<string, unknown> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
  const where = relativeSource(appDir, file);
  let parsed: unknown;
  try {
    // Editors on Windows may save a BOM, which JSON.parse rejects.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw configurationError(`${where}: invalid JSON (${(err as Error).message})`, { cause: err });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw configurationError(`${where}: a schema file must contain a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

// Posix separators so messages (and tests) read the same on every platform.
function relativeSource(appDir: string, file: string): string {
  return path.relative(appDir, file).split(path.sep).join('/');
}

function defaultComponentTable(category: string, name: string): string {
  return `components_${category}_${name}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
}

function byUid(a: { uid: string }, b: { uid: string }): number {
  return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
}
