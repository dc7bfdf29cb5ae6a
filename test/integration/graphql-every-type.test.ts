/**
 * The GraphQL plugin on a fixture of its own with every attribute type (test/fixtures/graphql/
 * every-type), in both shapes: each maps to Strapi 4's GraphQL type (Strapi 5's in the flat shape:
 * a document's `documentId`, a to-many relation a list and its `_connection`, private attributes
 * out of filters), in outputs, filters and inputs, and each value reads back through HTTP as stored.
 */
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { copyApp } from '../../testing.ts';
import { ROOT, startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

const SCALARS = [
  'str',
  'txt',
  'rich',
  'blk',
  'enm',
  'named',
  'mail',
  'slug',
  'day',
  'clock',
  'when',
  'int',
  'big',
  'flt',
  'dec',
  'flag',
  'js',
];

/** A list field's arguments as printed (sorted): filters, pagination, publicationState (Strapi 4's only), sort. */
const LIST_ARGS = (type: string, draftAndPublish = false): string =>
  `filters: ${type}FiltersInput, pagination: PaginationArg = {}, ` +
  `${draftAndPublish ? 'publicationState: PublicationState = LIVE, ' : ''}sort: [String] = []`;

/** A to-many relation's fields as printed: Strapi 4's `RelationResponseCollection`, Strapi 5's list and connection. */
const TO_MANY = (flat: boolean, field: string, type: string, draftAndPublish = false): string =>
  flat
    ? `${field}(${LIST_ARGS(type)}): [${type}]!\n` +
      `  ${field}_connection(${LIST_ARGS(type)}): ${type}RelationResponseCollection`
    : `${field}(${LIST_ARGS(type, draftAndPublish)}): ${type}RelationResponseCollection`;

describe.each(SHAPES)('every attribute type (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  const flat = shape === 'flat';
  let t: TestApp;
  let sdl: string;
  const block = (head: string): string => {
    const start = sdl.indexOf(`${head} {`);
    if (start < 0) throw new Error(`no ${head}`);
    return sdl.slice(start, sdl.indexOf('\n}', start) + 2);
  };
  /** A single relation's type: Strapi 4's `EntityResponse`, Strapi 5's document type. */
  const one = (type: string) => (flat ? type : `${type}EntityResponse`);

  beforeAll(async () => {
    t = await startApp({
      appDir: await copyApp(path.join(ROOT, 'test/fixtures/graphql/every-type')),
      config: shapeConfig(shape),
    });
    sdl = printSchema(lexicographicSortSchema(t.app.plugin(graphqlPlugin).schema()));
  });
  afterAll(async () => {
    await t?.close();
  });

  it("maps each to the shape's GraphQL type in the output type (private and password left out)", () => {
    expect(block('type Thing')).toBe(`type Thing {
  big: Long
  blk: JSON
  clock: Time
  createdAt: DateTime
  day: Date
  dec: Float${flat ? '\n  documentId: ID!' : ''}
  enm: ENUM_THING_ENM
  flag: Boolean
  flt: Float
  int: Int
  js: JSON
  locale: String
  ${TO_MANY(flat, 'localizations', 'Thing', true)}
  mail: String
  ${TO_MANY(flat, 'many', 'Other')}
  named: ENUM_OWN_NAME
  one: ${one('Other')}
  pic: ${one('UploadFile')}
  ${TO_MANY(flat, 'pics', 'UploadFile')}
  piece: ComponentPartsPiece
  pieces(${LIST_ARGS('ComponentPartsPiece')}): [ComponentPartsPiece]
  publishedAt: DateTime
  rich: String
  slug: String
  stamp: DateTime
  str: String!
  txt: String
  updatedAt: DateTime
  when: DateTime
  zone: [ThingZoneDynamicZone]
}`);
    expect(block('type ComponentPartsPiece')).toBe(`type ComponentPartsPiece {
  id: ID!
  kind: ENUM_COMPONENTPARTSPIECE_KIND
  label: String!
  other: ${one('Other')}
  size: Long
}`);
    expect(sdl).toContain('union ThingZoneDynamicZone = ComponentPartsPiece | Error');
    expect(sdl).toContain('scalar ThingZoneDynamicZoneInput');
    expect(sdl).toContain('scalar Long');
  });

  it('keeps private attributes in inputs, in filters as Strapi 4 (refused when used); no media or zones there', () => {
    const filters = block('input ThingFiltersInput');
    for (const line of [
      'big: LongFilterInput',
      'enm: StringFilterInput',
      'pieces: ComponentPartsPieceFiltersInput',
      'localizations: ThingFiltersInput',
      flat ? 'documentId: IDFilterInput' : 'id: IDFilterInput',
    ]) {
      expect(filters).toContain(`  ${line}\n`);
    }
    expect(filters).not.toMatch(/ (pic|pics|zone):/);
    // Strapi 4 lists private attributes in filters; Strapi 5 leaves them out
    const privates = ['pass: StringFilterInput', 'secret: StringFilterInput'].map((line) => filters.includes(line));
    expect(privates).toEqual(flat ? [false, false] : [true, true]);
    expect(filters.includes('  id: IDFilterInput\n')).toBe(!flat);
    const input = block('input ThingInput');
    for (const line of [
      'many: [ID]',
      'one: ID',
      'pics: [ID]',
      'pieces: [ComponentPartsPieceInput]',
      'zone: [ThingZoneDynamicZoneInput!]',
      'secret: String',
      'publishedAt: DateTime',
    ]) {
      expect(input).toContain(`  ${line}\n`);
    }
    expect(input).not.toMatch(/ (locale|localizations|createdAt):/);
    expect(sdl).toContain('input LongFilterInput {');
  });

  it('reads every value back as stored (REST shows the same; a timestamp as ISO, not epoch)', async () => {
    const other = (await t.app.documents('api::other.other').create({ data: { label: 'o' } })).documentId;
    const file = await t.app.documents('plugin::upload.file').create({
      data: {
        name: 'f.png',
        hash: 'f',
        ext: '.png',
        mime: 'image/png',
        size: 1,
        provider: 'local',
        url: '/uploads/f.png',
      },
    });
    const piece = { label: 'p', size: '9007199254740993', kind: 'large', other };
    const thing = await t.app.documents('api::thing.thing').create({
      status: 'published',
      data: {
        str: 'S',
        txt: 'T',
        rich: '# R',
        blk: [{ type: 'paragraph', children: [{ type: 'text', text: 'b' }] }],
        enm: 'b',
        named: 'y',
        mail: 'a@b.io',
        pass: 'secret12',
        slug: 's-1',
        day: '2024-05-01',
        clock: '10:20:30',
        when: '2024-05-01T10:00:00.000Z',
        stamp: '2024-05-01T10:00:00.000Z',
        int: 42,
        big: '9007199254740993',
        flt: 1.5,
        dec: 2.25,
        flag: true,
        js: { a: [1, 2] },
        secret: 'hidden',
        one: other,
        many: [other],
        pic: file.id,
        pics: [file.id],
        piece,
        pieces: [piece, { label: 'q' }],
        zone: [{ __component: 'parts.piece', label: 'z' }],
      },
    });
    const sel = `${SCALARS.join(' ')} stamp publishedAt locale one ${q.docs('label')} ${q.ids('many')}
      ${q.ids('pic')} ${q.ids('pics')} piece { label size kind ${q.ids('other')} }
      pieces(pagination: { start: 1 }) { label }
      zone { ... on ComponentPartsPiece { __typename label } }`;
    const res = await t.request('POST', '/graphql', { query: `{ things ${q.docs(sel, true)} }` });
    expect(res.body.errors).toBeUndefined();
    const [entity] = q.rows(res.body.data.things) as Record<string, any>[];
    expect(entity.documentId).toBe(thing.documentId);
    const rest = (await t.request('GET', `/api/things/${thing.documentId}`)).body.data;
    for (const name of SCALARS) expect(entity[name], name).toEqual(rest[name]);
    // a file is named by its row id in Strapi 4's shape, by its documentId in Strapi 5's
    const fileId = flat ? file.documentId : String(file.id);
    expect(entity).toMatchObject({
      big: '9007199254740993',
      stamp: '2024-05-01T10:00:00.000Z',
      publishedAt: rest.publishedAt,
      locale: 'en',
      one: { label: 'o' },
      many: [{ documentId: other }],
      pic: { documentId: fileId },
      pics: [{ documentId: fileId }],
      piece: { label: 'p', size: '9007199254740993', kind: 'large', other: { documentId: other } },
      pieces: [{ label: 'q' }],
      zone: [{ __typename: 'ComponentPartsPiece', label: 'z' }],
    });
  });
});
