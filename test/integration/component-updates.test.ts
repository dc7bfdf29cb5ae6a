import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ROOT, startApp } from '../helpers/app.ts';

/**
 * Components updated by id, and ids that are not the document's own. Every expected answer
 * here is what Strapi 5.54 answered to the same request on the same schemas
 * (test/fixtures/validation: a product with single, repeatable, nested and dynamic-zone components).
 */
const FIXTURE = path.join(ROOT, 'test/fixtures/validation');
const POPULATE =
  'populate[dimensions]=true&populate[variants][populate]=*&populate[spec][populate]=*&populate[sections]=true';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ appDir: FIXTURE });
});
afterAll(async () => {
  await t?.close();
});

type Doc = Record<string, any>;
const full = {
  name: 'P1',
  spec: { title: 's', box: { width: 1, height: 2, depth: 3, unit: 'cm' }, options: [{ value: 'a' }] },
  dimensions: { width: 10, height: 20, depth: 30, unit: 'cm' },
  variants: [{ label: 'v1', price: 1, options: [{ value: 'o1' }] }, { label: 'v2' }],
  sections: [
    { __component: 'parts.note', text: 'n' },
    { __component: 'parts.dimensions', width: 5 },
  ],
};

let counter = 0;
/** A published product (draft and published versions), its draft as read back. */
async function product(): Promise<Doc> {
  counter += 1;
  const res = await t.request('POST', '/api/products', { data: { ...full, name: `P${counter}` } });
  expect(res.status).toBe(201);
  return draft(res.body.data.documentId);
}
const draft = async (documentId: string): Promise<Doc> =>
  (await t.request('GET', `/api/products/${documentId}?status=draft&${POPULATE}`)).body.data;
const published = async (documentId: string): Promise<Doc> =>
  (await t.request('GET', `/api/products/${documentId}?${POPULATE}`)).body.data;
const putDraft = (documentId: string, data: Doc) =>
  t.request('PUT', `/api/products/${documentId}?status=draft&${POPULATE}`, { data });
const strip = ({ documentId: _d, ...rest }: Doc): Doc => rest;

describe('a component sent with its id is updated in place', () => {
  it('keeps the attributes a single component is sent without', async () => {
    const before = await product();
    const res = await putDraft(before.documentId, { dimensions: { id: before.dimensions.id, width: 17 } });
    expect(res.status).toBe(200);
    expect(strip(res.body.data.dimensions)).toEqual({
      id: before.dimensions.id,
      width: 17,
      height: 20,
      depth: 30,
      unit: 'cm',
    });
    expect(res.body.data.dimensions.documentId).toBe(before.dimensions.documentId);
  });

  it('keeps the nested components the update leaves out, and replaces one sent without an id', async () => {
    const before = await product();
    const kept = await putDraft(before.documentId, { spec: { id: before.spec.id, title: 's2' } });
    expect(kept.status).toBe(200);
    expect(kept.body.data.spec).toMatchObject({ id: before.spec.id, title: 's2' });
    expect(kept.body.data.spec.box).toEqual(before.spec.box);
    expect(kept.body.data.spec.options).toEqual(before.spec.options);
    // a nested component without id is a new one: its other attributes are null
    const fresh = await putDraft(before.documentId, { spec: { id: before.spec.id, box: { width: 99 } } });
    expect(fresh.body.data.spec.title).toBe('s2');
    expect(fresh.body.data.spec.box).toMatchObject({ width: 99, height: null, depth: null, unit: null });
    expect(fresh.body.data.spec.box.id).not.toBe(before.spec.box.id);
    expect(fresh.body.data.spec.options).toEqual(before.spec.options);
  });

  it('replaces a component sent without an id, nested components included', async () => {
    const before = await product();
    const res = await putDraft(before.documentId, { spec: { title: 'fresh' }, dimensions: { width: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.data.spec).toMatchObject({ title: 'fresh', box: null, options: [] });
    expect(res.body.data.spec.id).not.toBe(before.spec.id);
    expect(res.body.data.dimensions).toMatchObject({ width: 5, height: null, depth: null, unit: null });
  });

  it('updates repeatable entries sent with their id, adds those without, removes those left out', async () => {
    const before = await product();
    const [v1, v2] = before.variants;
    const res = await putDraft(before.documentId, { variants: [{ id: v1.id, price: 9 }, { label: 'v3' }] });
    expect(res.status).toBe(200);
    const after = res.body.data.variants;
    expect(after).toHaveLength(2);
    expect(strip(after[0])).toEqual({ id: v1.id, label: 'v1', price: 9, options: v1.options });
    expect(after[1]).toMatchObject({ label: 'v3', price: null, options: [] });
    expect([v1.id, v2.id]).not.toContain(after[1].id);
    // a string id names the same instance (Strapi compares them as strings)
    const again = await putDraft(before.documentId, { variants: [{ id: String(v1.id), label: 'renamed' }] });
    expect(again.status).toBe(200);
    expect(strip(again.body.data.variants[0])).toEqual({ id: v1.id, label: 'renamed', price: 9, options: v1.options });
  });

  it('keeps an id sent twice in one list once: the second entry is a new instance (a kept difference)', async () => {
    const before = await product();
    const [v1] = before.variants;
    const res = await putDraft(before.documentId, {
      variants: [
        { id: v1.id, label: 'first' },
        { id: v1.id, label: 'second' },
      ],
    });
    expect(res.status).toBe(200);
    const after = res.body.data.variants;
    expect(after.map((v: Doc) => v.label)).toEqual(['first', 'second']);
    expect(after[0]).toMatchObject({ id: v1.id, price: 1 });
    expect(after[1].id).not.toBe(v1.id);
    expect(after[1].price).toBeNull();
  });

  it('updates dynamic-zone items sent with their id in place', async () => {
    const before = await product();
    const dims = before.sections[1];
    const res = await putDraft(before.documentId, {
      sections: [
        { __component: 'parts.dimensions', id: dims.id, height: 7 },
        { __component: 'parts.note', text: 'new' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.sections[0]).toMatchObject({
      __component: 'parts.dimensions',
      id: dims.id,
      width: 5,
      height: 7,
      depth: null,
    });
    expect(res.body.data.sections[1]).toMatchObject({ __component: 'parts.note', text: 'new' });
    expect(res.body.data.sections[1].id).not.toBe(before.sections[0].id);
  });

  it("a published write takes the draft's ids and publishes the merged result", async () => {
    const before = await product();
    const res = await t.request('PUT', `/api/products/${before.documentId}?${POPULATE}`, {
      data: { dimensions: { id: before.dimensions.id, height: 44 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.publishedAt).not.toBeNull();
    expect(res.body.data.dimensions).toMatchObject({ width: 10, height: 44, depth: 30, unit: 'cm' });
  });

  it('ignores component ids on create: every instance is new', async () => {
    const other = await product();
    const res = await t.request('POST', `/api/products?status=draft&${POPULATE}`, {
      data: { dimensions: { id: other.dimensions.id, width: 1 }, variants: [{ id: 999999, label: 'x' }] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.dimensions.id).not.toBe(other.dimensions.id);
    expect(res.body.data.dimensions).toMatchObject({ width: 1, height: null });
    expect(res.body.data.variants[0].id).not.toBe(999999);
  });
});

describe("a component id that is not this version's own is refused", () => {
  const refusal = (field: string) => ({
    data: null,
    error: {
      status: 400,
      name: 'ApplicationError',
      message: `Some of the provided components in ${field} are not related to the entity`,
      details: {},
    },
  });

  it("refuses the published version's ids when updating the draft, and writes nothing", async () => {
    const before = await product();
    const pub = await published(before.documentId);
    expect(pub.dimensions.id).not.toBe(before.dimensions.id);
    const cases: Array<[Doc, string]> = [
      [{ name: 'changed', dimensions: { id: pub.dimensions.id, width: 1 } }, 'dimensions'],
      [{ variants: [{ id: pub.variants[0].id, price: 1 }] }, 'variants'],
      [{ spec: { id: before.spec.id, box: { id: pub.spec.box.id, width: 1 } } }, 'box'],
      [{ spec: { id: before.spec.id, options: [{ id: pub.spec.options[0].id, value: 'zz' }] } }, 'options'],
      [{ sections: [{ __component: 'parts.note', id: pub.sections[0].id, text: 'x' }] }, 'sections'],
    ];
    for (const [data, field] of cases) {
      const res = await putDraft(before.documentId, data);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal(field));
    }
    // the default (published) PUT writes the draft, so it refuses the published ids too
    const viaPublish = await t.request('PUT', `/api/products/${before.documentId}`, {
      data: { dimensions: { id: pub.dimensions.id } },
    });
    expect(viaPublish.body).toEqual(refusal('dimensions'));
    expect(await draft(before.documentId)).toEqual(before);
    expect(await published(before.documentId)).toEqual(pub);
  });

  it("refuses another document's ids, nested ones of another place and of another component", async () => {
    const a = await product();
    const b = await product();
    const cases: Array<[Doc, string]> = [
      [{ dimensions: { id: b.dimensions.id, width: 5 } }, 'dimensions'],
      // a parts.option of this very document, but under variants, not under spec
      [{ spec: { id: a.spec.id, options: [{ id: a.variants[0].options[0].id, value: 'zz' }] } }, 'options'],
      // a dimensions item's id sent as a note
      [{ sections: [{ __component: 'parts.note', id: a.sections[1].id, text: 'x' }] }, 'sections'],
    ];
    for (const [data, field] of cases) {
      const res = await putDraft(a.documentId, data);
      expect(res.body).toEqual(refusal(field));
    }
    expect(await draft(a.documentId)).toEqual(a);
  });

  it('refuses an id where the document has no component yet', async () => {
    const res = await t.request('POST', '/api/products?status=draft', { data: { name: 'bare' } });
    const put = await putDraft(res.body.data.documentId, { dimensions: { id: 1, width: 1 } });
    expect(put.body).toEqual(refusal('dimensions'));
  });

  it('reports validation problems before a foreign id, as Strapi does', async () => {
    const before = await product();
    const res = await putDraft(before.documentId, { stock: 101, dimensions: { id: 999999 } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
  });
});
