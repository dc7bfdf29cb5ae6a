/**
 * GraphQL mutations on the fixture with every attribute type (test/fixtures/graphql/every-type), in
 * both shapes: each value written through `createThing` and `updateThing` is stored as REST's write
 * stores it, reads back the same through REST, and `deleteThing` removes every row (Strapi 4's
 * answering the deleted document, Strapi 5's its documentId).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyApp } from '../../testing.ts';
import { ROOT, startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, shapeConfig, shapeQueries } from '../helpers/graphql-shapes.ts';

const SCALARS = {
  str: 'S',
  txt: 'T',
  rich: '# R',
  blk: [{ type: 'paragraph', children: [{ type: 'text', text: 'b' }] }],
  enm: 'b',
  named: 'y',
  mail: 'a@b.io',
  slug: 's-1',
  day: '2024-05-01',
  clock: '10:20:30.000',
  when: '2024-05-01T10:00:00.000Z',
  stamp: '2024-05-01T10:00:00.000Z',
  int: 42,
  big: '9007199254740993',
  flt: 1.5,
  dec: 2.25,
  flag: true,
  js: { a: [1, 2] },
};

describe.each(SHAPES)('mutations of every attribute type (%s shape)', (shape) => {
  const q = shapeQueries(shape);
  const flat = shape === 'flat';
  let t: TestApp;
  let other: string;
  let file: number;

  beforeAll(async () => {
    t = await startApp({
      appDir: await copyApp(path.join(ROOT, 'test/fixtures/graphql/every-type')),
      config: shapeConfig(shape),
    });
    other = (await t.app.documents('api::other.other').create({ data: { label: 'o' } })).documentId as string;
    const f = await t.app.documents('plugin::upload.file').create({
      data: { name: 'f.png', hash: 'f', ext: '.png', mime: 'image/png', size: 1, provider: 'local', url: '/u/f.png' },
    });
    file = f.id as number;
  });
  afterAll(async () => {
    await t?.close();
  });

  const gql = (query: string, variables?: Record<string, unknown>) =>
    t.request('POST', '/graphql', { query, variables });

  it('creates, updates and deletes a document with every kind of value', async () => {
    const piece = { label: 'p', size: '9007199254740993', kind: 'large', other };
    const data = {
      ...SCALARS,
      secret: 'hidden',
      one: other,
      many: [other],
      pic: String(file),
      pics: [String(file)],
      piece,
      pieces: [piece, { label: 'q' }],
      zone: [{ __typename: 'ComponentPartsPiece', label: 'z' }],
      // Strapi 4 publishes a create given `publishedAt`; Strapi 5 publishes unless `status: DRAFT`
      ...(flat ? {} : { publishedAt: '2024-01-01T00:00:00.000Z' }),
    };
    const res = await gql(
      `mutation($data: ThingInput!) { createThing(data: $data) ${q.docs(
        `str publishedAt ${q.ids('one')} zone { ... on ComponentPartsPiece { __typename label } }`,
        true,
      )} }`,
      { data },
    );
    expect(res.body.errors).toBeUndefined();
    const created = q.data(res.body.data).createThing;
    const id = created.documentId as string;
    expect(created).toMatchObject({ str: 'S', one: { documentId: other } });
    expect(created.zone).toEqual([{ __typename: 'ComponentPartsPiece', label: 'z' }]);
    expect(created.publishedAt).not.toBeNull();
    const rest = (await t.request('GET', `/api/things/${id}?populate=*`)).body.data;
    for (const [name, value] of Object.entries(SCALARS)) {
      if (name === 'clock') expect(String(rest.clock)).toMatch(/^10:20:30/);
      // REST answers a timestamp as Strapi 5 does, in epoch milliseconds
      else if (name === 'stamp') expect(rest.stamp).toBe(String(Date.parse(SCALARS.stamp)));
      else expect(rest[name], name).toEqual(value);
    }
    expect(rest.secret).toBeUndefined();
    expect(rest.one.documentId).toBe(other);
    expect(rest.many.map((o: { documentId: string }) => o.documentId)).toEqual([other]);
    expect(rest.pic.id).toBe(file);
    expect(rest.piece).toMatchObject({ label: 'p', size: '9007199254740993', kind: 'large' });
    expect(rest.pieces.map((p: { label: string }) => p.label)).toEqual(['p', 'q']);
    expect(rest.zone).toMatchObject([{ __component: 'parts.piece', label: 'z' }]);
    const [row] = await t.sql('things').where({ document_id: id }).whereNull('published_at');
    expect(row.data.secret).toBeUndefined();

    const upd = await gql(
      `mutation($id: ID!) { updateThing(${q.id}: $id, data: { int: 7, flag: false, pieces: [], zone: [] })
        ${q.docs('int flag pieces { label } zone { __typename }')} }`,
      { id },
    );
    expect(upd.body.errors).toBeUndefined();
    expect(q.data(upd.body.data).updateThing).toEqual({ int: 7, flag: false, pieces: [], zone: [] });
    expect((await t.request('GET', `/api/things/${id}`)).body.data).toMatchObject({ int: 7, flag: false, str: 'S' });

    const del = await gql(
      flat
        ? `mutation { deleteThing(documentId: "${id}") { documentId } }`
        : `mutation { deleteThing(id: "${id}") { data { id attributes { int } } } }`,
    );
    expect(del.body).toEqual({
      data: { deleteThing: flat ? { documentId: id } : { data: { id, attributes: { int: 7 } } } },
    });
    expect(await t.sql('things').where({ document_id: id })).toEqual([]);
  });

  it('answers a wrong value as BAD_USER_INPUT and writes nothing', async () => {
    const res = await gql(
      `mutation { createThing(data: { str: "x", mail: "nope"${flat ? '' : ', publishedAt: "2024-01-01"'} })
        ${flat ? '{ documentId }' : '{ data { id } }'} }`,
    );
    expect(res.body.data).toEqual({ createThing: null });
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(await t.sql('things').where('data', '@>', JSON.stringify({ str: 'x' }))).toEqual([]);
  });
});
