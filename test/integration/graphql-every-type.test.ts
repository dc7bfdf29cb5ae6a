/**
 * The GraphQL plugin on a fixture of its own with every attribute type (test/fixtures/graphql/
 * every-type): each maps to Strapi 4's GraphQL type, in outputs, filters and inputs, and each
 * value reads back through HTTP as stored.
 */
import path from 'node:path';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlPlugin } from '../../plugins/graphql/index.ts';
import { copyApp } from '../../testing.ts';
import { ROOT, startApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let sdl: string;
const block = (head: string): string => {
  const start = sdl.indexOf(`${head} {`);
  if (start < 0) throw new Error(`no ${head}`);
  return sdl.slice(start, sdl.indexOf('\n}', start) + 2);
};

beforeAll(async () => {
  t = await startApp({ appDir: await copyApp(path.join(ROOT, 'test/fixtures/graphql/every-type')) });
  sdl = printSchema(lexicographicSortSchema(t.app.plugin(graphqlPlugin).schema()));
});
afterAll(async () => {
  await t?.close();
});

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

/** A list field's arguments as printed (sorted): filters, pagination, publicationState, sort. */
const LIST_ARGS = (type: string, draftAndPublish = false): string =>
  `filters: ${type}FiltersInput, pagination: PaginationArg = {}, ` +
  `${draftAndPublish ? 'publicationState: PublicationState = LIVE, ' : ''}sort: [String] = []`;

describe('every attribute type', () => {
  it("maps each to Strapi 4's GraphQL type in the output type (private and password left out)", () => {
    expect(block('type Thing')).toBe(`type Thing {
  big: Long
  blk: JSON
  clock: Time
  createdAt: DateTime
  day: Date
  dec: Float
  enm: ENUM_THING_ENM
  flag: Boolean
  flt: Float
  int: Int
  js: JSON
  locale: String
  localizations(${LIST_ARGS('Thing', true)}): ThingRelationResponseCollection
  mail: String
  many(${LIST_ARGS('Other')}): OtherRelationResponseCollection
  named: ENUM_OWN_NAME
  one: OtherEntityResponse
  pic: UploadFileEntityResponse
  pics(${LIST_ARGS('UploadFile')}): UploadFileRelationResponseCollection
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
  other: OtherEntityResponse
  size: Long
}`);
    expect(sdl).toContain('union ThingZoneDynamicZone = ComponentPartsPiece | Error');
    expect(sdl).toContain('scalar ThingZoneDynamicZoneInput');
    expect(sdl).toContain('scalar Long');
  });

  it('keeps private attributes in filters and inputs (refused when used), media and zones out of filters', () => {
    const filters = block('input ThingFiltersInput');
    for (const line of [
      'big: LongFilterInput',
      'enm: StringFilterInput',
      'pass: StringFilterInput',
      'secret: StringFilterInput',
      'pieces: ComponentPartsPieceFiltersInput',
      'localizations: ThingFiltersInput',
      'id: IDFilterInput',
    ]) {
      expect(filters).toContain(`  ${line}\n`);
    }
    expect(filters).not.toMatch(/ (pic|pics|zone):/);
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
    const res = await t.request('POST', '/graphql', {
      query: `{ things { data { id attributes { ${SCALARS.join(' ')} stamp publishedAt locale
        one { data { attributes { label } } } many { data { id } } pic { data { id } } pics { data { id } }
        piece { label size kind other { data { id } } } pieces(pagination: { start: 1 }) { label }
        zone { ... on ComponentPartsPiece { __typename label } } } } } }`,
    });
    expect(res.body.errors).toBeUndefined();
    const [entity] = res.body.data.things.data;
    expect(entity.id).toBe(thing.documentId);
    const rest = (await t.request('GET', `/api/things/${thing.documentId}`)).body.data;
    for (const name of SCALARS) expect(entity.attributes[name], name).toEqual(rest[name]);
    expect(entity.attributes).toMatchObject({
      big: '9007199254740993',
      stamp: '2024-05-01T10:00:00.000Z',
      publishedAt: rest.publishedAt,
      locale: 'en',
      one: { data: { attributes: { label: 'o' } } },
      many: { data: [{ id: other }] },
      pic: { data: { id: String(file.id) } },
      pics: { data: [{ id: String(file.id) }] },
      piece: { label: 'p', size: '9007199254740993', kind: 'large', other: { data: { id: other } } },
      pieces: [{ label: 'q' }],
      zone: [{ __typename: 'ComponentPartsPiece', label: 'z' }],
    });
  });
});
