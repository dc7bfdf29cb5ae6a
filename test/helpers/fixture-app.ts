import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface FixtureApp {
  /** singularName → schema.json content (api::<name>.<name>) */
  contentTypes?: Record<string, unknown>;
  /** `<category>.<name>` → component json */
  components?: Record<string, unknown>;
  /** any other files, path relative to the app folder → text */
  files?: Record<string, string>;
}

/** Write an app folder in Strapi layout under the temp dir; returns its path. */
export async function writeApp(spec: FixtureApp): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vellum-app-'));
  const put = async (rel: string, text: string): Promise<void> => {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  };
  for (const [name, schema] of Object.entries(spec.contentTypes ?? {})) {
    await put(`src/api/${name}/content-types/${name}/schema.json`, JSON.stringify(schema, null, 2));
  }
  for (const [uid, schema] of Object.entries(spec.components ?? {})) {
    const [category, name] = uid.split('.');
    await put(`src/components/${category}/${name}.json`, JSON.stringify(schema, null, 2));
  }
  for (const [rel, text] of Object.entries(spec.files ?? {})) await put(rel, text);
  return dir;
}
