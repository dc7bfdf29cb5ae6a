/**
 * Strapi 5's flat shape (`graphql.config.shape: 'flat'`): the schema built for the blog fixture is
 * Strapi 5.54's (`strapi5-blog.graphql`; with `v4CompatibilityMode`, `strapi5-blog-v4compat.graphql`),
 * printed the same way on both sides, except for the differences listed (with their reasons) in
 * test/fixtures/graphql/differences-flat.ts: the schema apps started with `shape: 'flat'` serve.
 */
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import {
  buildASTSchema,
  type DefinitionNode,
  type DocumentNode,
  type FieldDefinitionNode,
  type InputValueDefinitionNode,
  Kind,
  lexicographicSortSchema,
  parse,
  printSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { buildSchema } from '../../plugins/graphql/schema/build.ts';
import { type FlatDifference, FLAT_DIFFERENCES, V4_COMPAT_DIFFERENCES } from '../fixtures/graphql/differences-flat.ts';
import { copyApp } from '../../testing.ts';
import { BLOG, ROOT, startApp, type TestApp } from '../helpers/app.ts';
import { definitions } from '../helpers/sdl.ts';

const fixture = (name: string): string => readFileSync(path.join(ROOT, 'test/fixtures/graphql', name), 'utf8');

type Field = FieldDefinitionNode | InputValueDefinitionNode;
type WithFields = DefinitionNode & { name: { value: string }; fields?: readonly Field[] };

/** One field's definition, parsed from its SDL line inside a type of `kind`. */
function parseField(kind: Kind, sdl: string): Field {
  const keyword = kind === Kind.INPUT_OBJECT_TYPE_DEFINITION ? 'input' : 'type';
  const def = parse(`${keyword} T { ${sdl} }`).definitions[0] as WithFields;
  return def.fields![0];
}

/** Strapi's SDL with the listed differences applied, on its syntax tree, printed sorted. */
function expected(sdl: string, differences: FlatDifference[]): Map<string, string> {
  let defs = parse(sdl).definitions as WithFields[];
  const typeNamed = (name: string): WithFields => {
    const def = defs.find((d) => d.name.value === name);
    if (!def) throw new Error(`no type ${name}`);
    return def;
  };
  const setFields = (name: string, fields: Field[]): void => {
    defs = defs.map((d) => (d.name.value === name ? ({ ...d, fields } as WithFields) : d));
  };
  for (const d of differences) {
    if ('remove' in d) {
      typeNamed(d.remove);
      defs = defs.filter((def) => def.name.value !== d.remove);
    } else if ('removeArg' in d) {
      const fields = (typeNamed(d.type).fields ?? []) as FieldDefinitionNode[];
      if (!fields.some((f) => f.arguments?.some((a) => a.name.value === d.removeArg))) {
        throw new Error(`no argument ${d.removeArg} in ${d.type}`);
      }
      setFields(
        d.type,
        fields.map((f) => ({ ...f, arguments: f.arguments?.filter((a) => a.name.value !== d.removeArg) })),
      );
    } else {
      const def = typeNamed(d.type);
      const fields = def.fields ?? [];
      const set = 'setField' in d ? parseField(def.kind, d.setField) : undefined;
      const field = 'removeField' in d ? d.removeField : set!.name.value;
      const kept = fields.filter((f) => f.name.value !== field);
      if ('removeField' in d && kept.length === fields.length) throw new Error(`no field ${d.type}.${field}`);
      setFields(d.type, set ? [...kept, set] : kept);
    }
  }
  const doc: DocumentNode = { kind: Kind.DOCUMENT, definitions: defs };
  return definitions(printSchema(lexicographicSortSchema(buildASTSchema(doc))));
}

let t: TestApp;
let flatApp: TestApp;
let compatApp: TestApp;
let appDir: string;
const shape = (v4CompatibilityMode: boolean) => ({
  plugins: { graphql: { config: { shape: 'flat', v4CompatibilityMode } } },
});
beforeAll(async () => {
  // the blog's content-types without its own code, as graphql-schema.test.ts
  appDir = await copyApp(BLOG);
  await rm(path.join(appDir, 'src/index.ts'));
  t = await startApp({ appDir });
  flatApp = await startApp({ appDir, config: shape(false) });
  compatApp = await startApp({ appDir, config: shape(true) });
});
afterAll(async () => {
  await Promise.all([t?.close(), flatApp?.close(), compatApp?.close()]);
  if (appDir) await rm(appDir, { recursive: true, force: true });
});

const flat = (v4Compat: boolean) => buildSchema(t.app.registry, () => () => null, { shape: 'flat', v4Compat });

function compare(ours: Map<string, string>, theirs: Map<string, string>): void {
  expect([...ours.keys()].sort()).toEqual([...theirs.keys()].sort());
  for (const [name, block] of theirs) expect(ours.get(name), name).toEqual(block);
}

/** The schema the app serves, users-permissions' and upload's operations included. */
const printed = (v4Compat: boolean): string =>
  printSchema(lexicographicSortSchema((v4Compat ? compatApp : flatApp).app.plugin(graphqlPlugin).schema()));

describe("GraphQL schema of the blog fixture, Strapi 5's flat shape", () => {
  it("is Strapi 5's, but for the listed differences", () => {
    compare(definitions(printed(false)), expected(fixture('strapi5-blog.graphql'), FLAT_DIFFERENCES));
  });

  it("with v4CompatibilityMode, is Strapi 5's compatibility schema, but for the same differences", () => {
    const differences = [...FLAT_DIFFERENCES, ...V4_COMPAT_DIFFERENCES];
    compare(definitions(printed(true)), expected(fixture('strapi5-blog-v4compat.graphql'), differences));
  });

  it('leaves the entity shape as it was', () => {
    const entity = t.app.plugin(graphqlPlugin).schema();
    expect(entity.getType('ArticleEntity')).toBeDefined();
    expect(entity.getType('DeleteMutationResponse')).toBeUndefined();
  });

  it('tells the planner what each type and root field is', () => {
    const { model, actions } = flat(false);
    expect(model.roles.get('Article')).toEqual({ kind: 'document', uid: 'api::article.article' });
    expect(model.roles.get('ArticleEntityResponseCollection')).toEqual({
      kind: 'connection',
      uid: 'api::article.article',
    });
    expect(model.roles.get('TagRelationResponseCollection')).toEqual({
      kind: 'relationConnection',
      uid: 'api::tag.tag',
    });
    expect(model.roles.get('ComponentSharedSeo')).toEqual({ kind: 'component', uid: 'shared.seo' });
    expect(model.roles.get('Pagination')).toEqual({ kind: 'pagination' });
    expect(model.roles.has('ArticleEntity')).toBe(false);
    const article = 'api::article.article';
    expect(model.roots.get('article')).toEqual({ uid: article, kind: 'findOne', action: `${article}.findOne` });
    expect(model.roots.get('articles')).toEqual({ uid: article, kind: 'find', action: `${article}.find` });
    expect(model.roots.get('articles_connection')).toEqual({
      uid: article,
      kind: 'connection',
      action: `${article}.find`,
    });
    expect(model.roots.get('global')).toMatchObject({ uid: 'api::global.global', kind: 'single' });
    expect(actions.get('Query.articles_connection')).toBe(`${article}.find`);
  });

  it('gives the writes their resolver, told they are flat', () => {
    const roots: unknown[] = [];
    buildSchema(t.app.registry, () => () => null, {
      shape: 'flat',
      resolveMutation: (root) => {
        roots.push(root);
        return () => null;
      },
    });
    const article = 'api::article.article';
    expect(roots).toContainEqual({ uid: article, kind: 'create', action: `${article}.create`, shape: 'flat' });
    expect(roots).toContainEqual({ uid: article, kind: 'delete', action: `${article}.delete`, shape: 'flat' });
    expect(roots).toContainEqual({
      uid: 'api::global.global',
      kind: 'update',
      action: 'api::global.global.update',
      shape: 'flat',
    });
    expect(roots).not.toContainEqual(expect.objectContaining({ kind: 'createLocalization' }));
  });

  it('gives every difference a reason', () => {
    for (const d of [...FLAT_DIFFERENCES, ...V4_COMPAT_DIFFERENCES]) expect(d.reason.length).toBeGreaterThan(10);
  });
});
