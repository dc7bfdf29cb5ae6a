import { fileURLToPath } from 'node:url';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../../core/errors.ts';
import { loadAppSchemas } from '../../../../core/content-types/load.ts';
import { validateSchemas } from '../../../../core/content-types/validate-schema.ts';

// The shared Strapi-layout fixture app used across Vellum's tests.
// the blog example ships the shared fixture's schemas unchanged
const FIXTURE = fileURLToPath(new URL('../../../../examples/blog', import.meta.url));

const tempDirs: string[] = [];

async function makeApp(files: Record<string, string | object>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vellum-load-'));
  tempDirs.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const minimalCt = (singularName: string) => ({
  kind: 'collectionType',
  collectionName: `${singularName}s`,
  info: { singularName, pluralName: `${singularName}s` },
  attributes: { title: { type: 'string' } },
});

afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('loadAppSchemas', () => {
  it('loads the blog fixture, sorted by uid, and it validates', async () => {
    const { contentTypes, components } = await loadAppSchemas(FIXTURE);
    expect(contentTypes.map((ct) => ct.uid)).toEqual([
      'api::article.article',
      'api::author.author',
      'api::global.global',
      'api::tag.tag',
    ]);
    expect(components.map((c) => c.uid)).toEqual([
      'shared.address',
      'shared.keyword',
      'shared.media',
      'shared.quote',
      'shared.rich-text',
      'shared.seo',
      'shared.slider',
      'shared.social-link',
    ]);
    expect(() => validateSchemas(contentTypes, components)).not.toThrow();
  });

  it('fills uid, origin, source and the schema fields of a content-type', async () => {
    const { contentTypes } = await loadAppSchemas(FIXTURE);
    const article = contentTypes[0];
    expect(article).toMatchObject({
      uid: 'api::article.article',
      kind: 'collectionType',
      collectionName: 'articles',
      info: { singularName: 'article', pluralName: 'articles' },
      options: { draftAndPublish: true },
      pluginOptions: { i18n: { localized: true } },
      origin: 'api',
      source: 'src/api/article/content-types/article/schema.json',
    });
    expect(article.attributes.title).toMatchObject({ type: 'string', required: true, maxLength: 200 });
    const global = contentTypes.find((ct) => ct.uid === 'api::global.global');
    expect(global?.kind).toBe('singleType');
  });

  it('fills uid, category and source of a component', async () => {
    const { components } = await loadAppSchemas(FIXTURE);
    const seo = components.find((c) => c.uid === 'shared.seo');
    expect(seo).toMatchObject({
      uid: 'shared.seo',
      category: 'shared',
      collectionName: 'components_shared_seos',
      info: { displayName: 'Seo' },
      source: 'src/components/shared/seo.json',
    });
    expect(Object.keys(seo?.attributes ?? {})).toEqual(['metaTitle', 'metaDescription', 'shareImage', 'keywords']);
  });

  it('defaults options and pluginOptions to {} but leaves kind as written', async () => {
    const schema = { collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes' }, attributes: {} };
    const dir = await makeApp({ 'src/api/note/content-types/note/schema.json': schema });
    const { contentTypes } = await loadAppSchemas(dir);
    expect(contentTypes[0].options).toEqual({});
    expect(contentTypes[0].pluginOptions).toEqual({});
    expect(contentTypes[0].kind).toBeUndefined();
    expect(() => validateSchemas(contentTypes, [])).toThrow(
      'src/api/note/content-types/note/schema.json: kind must be "collectionType" or "singleType" (got nothing)',
    );
  });

  it('returns empty lists for an app without src/api or src/components', async () => {
    const dir = await makeApp({ 'README.md': 'nothing here' });
    expect(await loadAppSchemas(dir)).toEqual({ contentTypes: [], components: [] });
    expect(await loadAppSchemas(path.join(dir, 'does-not-exist'))).toEqual({ contentTypes: [], components: [] });
  });

  it('loads content-types without components and the other way round', async () => {
    const ctOnly = await makeApp({ 'src/api/note/content-types/note/schema.json': minimalCt('note') });
    expect((await loadAppSchemas(ctOnly)).contentTypes.map((ct) => ct.uid)).toEqual(['api::note.note']);
    const compOnly = await makeApp({
      'src/components/ui/button.json': { collectionName: 'components_ui_buttons', info: {}, attributes: {} },
    });
    const loaded = await loadAppSchemas(compOnly);
    expect(loaded.contentTypes).toEqual([]);
    expect(loaded.components.map((c) => c.uid)).toEqual(['ui.button']);
  });

  it('sorts by uid whatever the folder order', async () => {
    const dir = await makeApp({
      'src/api/zebra/content-types/zebra/schema.json': minimalCt('zebra'),
      'src/api/apple/content-types/apple/schema.json': minimalCt('apple'),
      'src/api/apple/content-types/banana/schema.json': minimalCt('banana'),
      'src/components/z-cat/a.json': { collectionName: 'components_z_a', attributes: {} },
      'src/components/a-cat/z.json': { collectionName: 'components_a_z', attributes: {} },
    });
    const { contentTypes, components } = await loadAppSchemas(dir);
    expect(contentTypes.map((ct) => ct.uid)).toEqual(['api::apple.apple', 'api::apple.banana', 'api::zebra.zebra']);
    expect(components.map((c) => c.uid)).toEqual(['a-cat.z', 'z-cat.a']);
  });

  it('ignores apis without content-types, folders without schema.json and non-JSON component files', async () => {
    const dir = await makeApp({
      'src/api/health/routes/health.ts': 'export default {};',
      'src/api/note/content-types/note/schema.json': minimalCt('note'),
      'src/api/note/content-types/draft/lifecycles.ts': 'export default {};',
      'src/components/ui/button.json': { collectionName: 'components_ui_buttons', attributes: {} },
      'src/components/ui/README.md': '# ui components',
      'src/components/ui/nested/deep.json': { attributes: {} },
      'src/components/stray.json': { attributes: {} },
    });
    const { contentTypes, components } = await loadAppSchemas(dir);
    expect(contentTypes.map((ct) => ct.uid)).toEqual(['api::note.note']);
    expect(components.map((c) => c.uid)).toEqual(['ui.button']);
  });

  it('derives a component table name when the file has none', async () => {
    const dir = await makeApp({ 'src/components/ui/call-to-action.json': { attributes: {} } });
    const { components } = await loadAppSchemas(dir);
    expect(components[0].collectionName).toBe('components_ui_call_to_action');
    expect(components[0].info).toEqual({});
  });

  it('accepts a UTF-8 byte order mark', async () => {
    const dir = await makeApp({
      'src/api/note/content-types/note/schema.json': `\uFEFF${JSON.stringify(minimalCt('note'))}`,
    });
    expect((await loadAppSchemas(dir)).contentTypes).toHaveLength(1);
  });

  it('rejects invalid JSON in a content-type, naming the file and the parse error', async () => {
    const dir = await makeApp({ 'src/api/note/content-types/note/schema.json': '{ "kind": "collectionType", }' });
    const err = await loadAppSchemas(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigurationError);
    expect((err as Error).message).toMatch(/^src\/api\/note\/content-types\/note\/schema\.json: invalid JSON \(.+\)$/);
    // the parser's own error stays reachable
    expect((err as Error).cause).toBeInstanceOf(SyntaxError);
  });

  it('rejects invalid JSON in a component, naming the file', async () => {
    const dir = await makeApp({ 'src/components/ui/button.json': '{"attributes": ' });
    await expect(loadAppSchemas(dir)).rejects.toThrow(/^src\/components\/ui\/button\.json: invalid JSON \(/);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"schema"'],
    ['null', 'null'],
  ])('rejects a schema file holding %s', async (_what, text) => {
    const dir = await makeApp({ 'src/api/note/content-types/note/schema.json': text });
    await expect(loadAppSchemas(dir)).rejects.toThrow(
      'src/api/note/content-types/note/schema.json: a schema file must contain a JSON object',
    );
  });
});
