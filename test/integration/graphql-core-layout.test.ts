/**
 * The core's `layout` read option (built for GraphQL, usable by any plugin) through the document
 * service: keys in the caller's order, constants, fields as stored or as text, nested objects of
 * the same row, populates with their own window and status, private attributes never shown; a
 * read stays one statement, and REST's shape is untouched when no layout is given.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Layout } from '../../core/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

const ARTICLE = 'api::article.article';
let t: TestApp;
let tag: string;
let article: string;

beforeAll(async () => {
  t = await startApp();
  tag = (await t.app.documents('api::tag.tag').create({ data: { name: 'alpha' } })).documentId as string;
  const a = await t.app.documents(ARTICLE).create({
    status: 'published',
    data: {
      title: 'One',
      internalNotes: 'secret',
      tags: [tag],
      seo: { metaTitle: 'm', keywords: [{ value: 'k1' }, { value: 'k2' }, { value: 'k3' }] },
      blocks: [{ __component: 'shared.quote', title: 'q' }],
    },
  });
  article = a.documentId as string;
  // a draft-only article holding the tag: seen only where a node asks for drafts
  await t.app.documents(ARTICLE).create({ data: { title: 'Draft', tags: [tag] } });
});
afterAll(async () => {
  await t?.close();
});

describe('layout reads', () => {
  it('lays a document out in the given keys, with constants, text ids, objects and populates', async () => {
    const layout: Layout = [
      { kind: 'value', key: '__typename', value: 'ArticleEntity' },
      { kind: 'field', key: 'id', field: 'documentId', text: true },
      { kind: 'field', key: 'rowId', field: 'id', text: true },
      {
        kind: 'object',
        key: 'attributes',
        layout: [
          { kind: 'field', key: 'heading', field: 'title' },
          { kind: 'field', key: 'notes', field: 'internalNotes' },
          {
            kind: 'populate',
            key: 'kw',
            node: {
              attribute: 'seo',
              layout: [
                {
                  kind: 'populate',
                  key: 'two',
                  node: {
                    attribute: 'keywords',
                    pagination: { start: 1, limit: 2 },
                    layout: [
                      { kind: 'field', key: 'id', field: 'id', text: true },
                      { kind: 'field', key: 'v', field: 'value' },
                    ],
                  },
                },
              ],
            },
          },
          {
            kind: 'populate',
            key: 'blocks',
            node: {
              attribute: 'blocks',
              on: { 'shared.quote': { layout: [{ kind: 'field', key: 'title', field: 'title' }] } },
            },
          },
        ],
      },
    ];
    t.queries.length = 0;
    const doc = await t.app.documents(ARTICLE).findOne({ documentId: article, status: 'published', layout });
    expect(Object.keys(doc!)).toEqual(['__typename', 'id', 'rowId', 'attributes']);
    expect(doc!.id).toBe(article);
    expect(typeof doc!.rowId).toBe('string');
    expect(doc!.attributes).toEqual({
      heading: 'One',
      notes: null,
      kw: { two: [expect.objectContaining({ v: 'k2' }), expect.objectContaining({ v: 'k3' })] },
      blocks: [{ title: 'q' }],
    });
    expect(typeof (doc!.attributes as any).kw.two[0].id).toBe('string');
    expect(t.queries.filter((q) => /^select/i.test(q))).toHaveLength(1);
  });

  it("reads a node's documents in its own status", async () => {
    const titles = (status?: 'draft' | 'published') =>
      t.app
        .documents('api::tag.tag')
        .findOne({
          documentId: tag,
          status: 'published',
          layout: [
            {
              kind: 'populate',
              key: 'articles',
              node: { attribute: 'articles', status, layout: [{ kind: 'field', key: 't', field: 'title' }] },
            },
          ],
        })
        .then((d) => (d!.articles as Array<{ t: string }>).map((a) => a.t).sort());
    expect(await titles()).toEqual(['One']);
    expect(await titles('draft')).toEqual(['Draft', 'One']);
  });

  it("leaves REST's flat shape as it was without a layout", async () => {
    const doc = await t.app.documents(ARTICLE).findOne({ documentId: article, status: 'published', fields: ['title'] });
    expect(Object.keys(doc!)).toEqual(['id', 'documentId', 'title']);
  });
});
