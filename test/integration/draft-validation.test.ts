import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ROOT, startApp } from '../helpers/app.ts';

/**
 * Lenient drafts, what publishing checks, and the error details of each rule. Every expected
 * answer (status, message, details.errors with path/message/name/value) is what Strapi 5.54
 * answered to the same request on the same schemas (test/fixtures/validation).
 */
const FIXTURE = path.join(ROOT, 'test/fixtures/validation');

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ appDir: FIXTURE });
});
afterAll(async () => {
  await t?.close();
});

type Doc = Record<string, any>;
const post = (data: Doc, query = '') => t.request('POST', `/api/products${query}`, { data });
const rowsNamed = async (name: string) =>
  Number((await t.sql('products').whereRaw(`data->>'name' = ?`, [name]).count({ n: '*' }).first())!.n);
const one = (path: string[], message: string, value?: unknown) =>
  value === undefined ? { path, message, name: 'ValidationError' } : { path, message, name: 'ValidationError', value };
/** The whole error envelope of a ValidationError with these problems. */
const invalid = (...errors: Doc[]) => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: errors.length === 1 ? errors[0].message : `${errors.length} errors occurred`,
    details: { errors },
  },
});
const REGEX = 'sku must match the following: "/^[A-Z]{3}-[0-9]+$/"';

describe('drafts are lenient', () => {
  it.each([
    ['required scalar and component missing', {}],
    ['regex', { sku: 'bad' }],
    ['min', { stock: -1 }],
    ['minLength', { code: 'ab' }],
    ['required attribute inside a component', { variants: [{ price: 3 }, { price: 4 }] }],
    ['repeatable component below its min', { variants: [{ label: 'a' }] }],
    [
      'repeatable component above its max',
      { variants: [{ label: 'a' }, { label: 'b' }, { label: 'c' }, { label: 'd' }] },
    ],
    [
      'dynamic zone above its max',
      { sections: [{ __component: 'parts.note' }, { __component: 'parts.note' }, { __component: 'parts.note' }] },
    ],
    ['required component null', { spec: null }],
  ])('POST ?status=draft skips %s', async (_name, data) => {
    const res = await post(data, '?status=draft');
    expect(res.status).toBe(201);
    expect(res.body.data.publishedAt).toBeNull();
  });

  it('stores what it skipped, as sent', async () => {
    const res = await post(
      { sku: 'bad', stock: -1, variants: [{ label: 'a' }, { label: 'b' }, { label: 'c' }, { label: 'd' }] },
      '?status=draft',
    );
    const read = await t.request('GET', `/api/products/${res.body.data.documentId}?status=draft&populate=variants`);
    expect(read.body.data).toMatchObject({ name: null, sku: 'bad', stock: -1 });
    expect(read.body.data.variants.map((v: Doc) => v.label)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('still checks max, maxLength and types, each with the value sent', async () => {
    expect((await post({ stock: 101 }, '?status=draft')).body).toEqual(
      invalid(one(['stock'], 'stock must be less than or equal to 100', 101)),
    );
    expect((await post({ code: 'abcdefghij' }, '?status=draft')).body).toEqual(
      invalid(one(['code'], 'code must be at most 8 characters', 'abcdefghij')),
    );
    const typed = await post({ stock: 'abc' }, '?status=draft');
    expect(typed.status).toBe(400);
    expect(typed.body.error.details.errors[0]).toMatchObject({ path: ['stock'], name: 'ValidationError' });
  });

  it('PUT ?status=draft is as lenient, and nulls a required attribute', async () => {
    const { documentId } = (await post({ name: 'lenient', spec: {} })).body.data;
    const res = await t.request('PUT', `/api/products/${documentId}?status=draft`, {
      data: { name: null, spec: null, sku: 'bad', code: 'ab' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: null, sku: 'bad', code: 'ab', publishedAt: null });
  });

  it('a draft may take a unique value another draft or a published document holds', async () => {
    expect((await post({ name: 'shared', spec: {} })).status).toBe(201);
    expect((await post({ name: 'shared' }, '?status=draft')).status).toBe(201);
    expect((await post({ name: 'shared' }, '?status=draft')).status).toBe(201);
    // and a published document may take a value only drafts hold
    expect((await post({ name: 'only-drafts' }, '?status=draft')).status).toBe(201);
    expect((await post({ name: 'only-drafts', spec: {} })).status).toBe(201);
  });
});

describe('a published write checks everything', () => {
  it.each([
    [
      'required scalar missing',
      { spec: {} },
      [one(['name'], 'name must be a `string` type, but the final value was: `null`.', null)],
    ],
    [
      'required component missing',
      { name: 'R1' },
      [one(['spec'], 'spec must be a `object` type, but the final value was: `null`.', null)],
    ],
    [
      'required component null',
      { name: 'R2', spec: null },
      [one(['spec'], 'spec must be a `object` type, but the final value was: `null`.', null)],
    ],
    ['regex', { name: 'R3', spec: {}, sku: 'bad' }, [one(['sku'], REGEX, 'bad')]],
    ['min', { name: 'R4', spec: {}, stock: -1 }, [one(['stock'], 'stock must be greater than or equal to 0', -1)]],
    ['minLength', { name: 'R5', spec: {}, code: 'ab' }, [one(['code'], 'code must be at least 3 characters', 'ab')]],
    [
      'minLength of an empty string',
      { name: 'R6', spec: {}, code: '' },
      [one(['code'], 'code must be at least 3 characters', '')],
    ],
    ['max', { name: 'R7', spec: {}, stock: 101 }, [one(['stock'], 'stock must be less than or equal to 100', 101)]],
    [
      'maxLength',
      { name: 'R8', spec: {}, code: 'abcdefghij' },
      [one(['code'], 'code must be at most 8 characters', 'abcdefghij')],
    ],
  ])("%s → 400 with Strapi's details, and nothing written", async (_name, data, errors) => {
    const res = await post(data as Doc);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(...(errors as Doc[])));
    if ((data as Doc).name) expect(await rowsNamed((data as Doc).name)).toBe(0);
  });

  it('accepts an empty repeatable component below its min (min binds a list that is not empty)', async () => {
    expect((await post({ name: 'empty-list', spec: {}, variants: [] })).status).toBe(201);
  });

  it('a repeatable component below its min: the items as stored, ids and unset attributes included', async () => {
    const res = await post({
      name: 'few',
      spec: { box: { width: 1 } },
      variants: [{ label: 'a', options: [{ value: 'x' }] }],
    });
    expect(res.status).toBe(400);
    const [problem] = res.body.error.details.errors;
    expect(res.body.error.message).toBe('variants field must have at least 2 items');
    expect(problem).toMatchObject({
      path: ['variants'],
      message: 'variants field must have at least 2 items',
      name: 'ValidationError',
    });
    expect(problem.value).toEqual([
      { id: expect.any(Number), label: 'a', price: null, options: [{ id: expect.any(Number), value: 'x' }] },
    ]);
    expect(await rowsNamed('few')).toBe(0);
  });

  it('a dynamic zone above its max: its items with their __component last', async () => {
    const res = await post({
      name: 'many',
      spec: {},
      sections: [
        { __component: 'parts.note', text: '1' },
        { __component: 'parts.dimensions', width: 2 },
        { __component: 'parts.note' },
      ],
    });
    expect(res.status).toBe(400);
    const [problem] = res.body.error.details.errors;
    expect(problem).toMatchObject({
      path: ['sections'],
      message: 'sections field must have less than or equal to 2 items',
    });
    expect(problem.value).toEqual([
      { id: expect.any(Number), text: '1', __component: 'parts.note' },
      { id: expect.any(Number), width: 2, height: null, depth: null, unit: null, __component: 'parts.dimensions' },
      { id: expect.any(Number), text: null, __component: 'parts.note' },
    ]);
    expect(Object.keys(problem.value[1])).toEqual(['id', 'width', 'height', 'depth', 'unit', '__component']);
  });

  it("lists every problem in schema order, an item's before its list's count, a unique value among them", async () => {
    expect((await post({ name: 'taken', spec: {} })).status).toBe(201);
    const res = await post({
      name: 'taken',
      spec: {},
      variants: [{ label: 'a' }, { price: 2 }, { label: 'c' }, { label: 'd' }],
    });
    expect(res.status).toBe(400);
    const errors = res.body.error.details.errors;
    expect(res.body.error.message).toBe('3 errors occurred');
    expect(errors[0]).toEqual(one(['name'], 'This attribute must be unique', 'taken'));
    expect(errors[1]).toEqual(
      one(
        ['variants', '1', 'label'],
        'variants[1].label must be a `string` type, but the final value was: `null`.',
        null,
      ),
    );
    expect(errors[2]).toMatchObject({
      path: ['variants'],
      message: 'variants field must have less than or equal to 3 items',
    });
    expect(errors[2].value.map((v: Doc) => [v.label, v.price, v.options])).toEqual([
      ['a', null, []],
      [null, 2, []],
      ['c', null, []],
      ['d', null, []],
    ]);
    expect(await rowsNamed('taken')).toBe(2); // the first document's draft and published rows only
  });

  it("a nested problem is labelled with yup's path", async () => {
    const res = await post({
      name: 'nested',
      spec: { box: { width: 'wide' } },
      sections: [{ __component: 'parts.note', text: 5 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors.map((e: Doc) => e.path)).toEqual([
      ['spec', 'box', 'width'],
      ['sections', '0', 'text'],
    ]);
    expect(res.body.error.details.errors[1].message).toMatch(/^sections\[0\]\.text must be a `string` type/);
  });

  it('a unique violation carries the value; empty strings are never taken', async () => {
    expect((await post({ name: 'once', spec: {} })).status).toBe(201);
    expect((await post({ name: 'once', spec: {} })).body).toEqual(
      invalid(one(['name'], 'This attribute must be unique', 'once')),
    );
    expect((await post({ name: '', spec: {} })).status).toBe(201);
    expect((await post({ name: '', spec: {} })).status).toBe(201);
  });
});

describe('publishing checks the whole draft', () => {
  it('PUT without status on an invalid draft: every problem of the stored draft, nothing written', async () => {
    const { documentId } = (await post({ sku: 'bad', stock: -1 }, '?status=draft')).body.data;
    const res = await t.request('PUT', `/api/products/${documentId}`, { data: { code: 'ab' } });
    expect(res.body).toEqual(
      invalid(
        one(['name'], 'name must be a `string` type, but the final value was: `null`.', null),
        one(['sku'], REGEX, 'bad'),
        one(['code'], 'code must be at least 3 characters', 'ab'),
        one(['stock'], 'stock must be greater than or equal to 0', -1),
        one(['spec'], 'spec must be a `object` type, but the final value was: `null`.', null),
      ),
    );
    const stored = await t.request('GET', `/api/products/${documentId}?status=draft`);
    expect(stored.body.data.code).toBeNull();
    expect((await t.request('GET', `/api/products/${documentId}`)).status).toBe(404);
  });

  it("a component count problem shows the draft's stored items, with the draft's ids", async () => {
    const res = await post(
      { name: 'over', spec: {}, variants: [{ label: 'a' }, { label: 'b' }, { label: 'c' }, { label: 'd' }] },
      '?status=draft',
    );
    const { documentId } = res.body.data;
    const stored = (await t.request('GET', `/api/products/${documentId}?status=draft&populate=variants`)).body.data
      .variants;
    const publish = await t.request('PUT', `/api/products/${documentId}`, { data: {} });
    expect(publish.body).toEqual(
      invalid(
        one(
          ['variants'],
          'variants field must have less than or equal to 3 items',
          stored.map((v: Doc) => ({ id: v.id, label: v.label, price: null, options: [] })),
        ),
      ),
    );
  });

  it('the publish action answers the same, and publishes a draft once it is valid', async () => {
    const { documentId } = (await post({ name: 'fixme' }, '?status=draft')).body.data;
    const refused = await t.request('POST', `/api/products/${documentId}/actions/publish`);
    expect(refused.body).toEqual(
      invalid(one(['spec'], 'spec must be a `object` type, but the final value was: `null`.', null)),
    );
    await t.request('PUT', `/api/products/${documentId}?status=draft`, { data: { spec: { title: 't' } } });
    const done = await t.request('POST', `/api/products/${documentId}/actions/publish`);
    expect(done.status).toBe(200);
    expect(done.body.data.publishedAt).not.toBeNull();
  });

  it('publishing a draft whose unique value another published document holds is refused with the value', async () => {
    expect((await post({ name: 'clash', spec: {} })).status).toBe(201);
    const { documentId } = (await post({ name: 'clash', spec: {} }, '?status=draft')).body.data;
    const res = await t.request('PUT', `/api/products/${documentId}`, { data: {} });
    expect(res.body).toEqual(invalid(one(['name'], 'This attribute must be unique', 'clash')));
  });
});

describe('a type without draft & publish checks its input', () => {
  const kit = (data: Doc) => t.request('POST', '/api/kits', { data });

  it('a required value never sent "must be defined", with no value; a null one names its type', async () => {
    expect((await kit({ code: 'abc' })).body).toEqual(invalid(one(['name'], 'name must be defined.')));
    expect((await kit({ name: null })).body).toEqual(
      invalid(one(['name'], 'name must be a `string` type, but the final value was: `null`.', null)),
    );
  });

  it('a count problem shows the items as sent, lists defaulting to [], and other problems with it', async () => {
    const res = await kit({
      name: 'K9',
      code: 'ab',
      variants: [{ label: 'a' }, { label: 'b' }, { price: 1 }, { label: 'd', options: [{ value: 'o' }] }],
    });
    expect(res.body).toEqual(
      invalid(
        one(['code'], 'code must be at least 3 characters', 'ab'),
        one(['variants', '2', 'label'], 'variants[2].label must be defined.'),
        one(['variants'], 'variants field must have less than or equal to 3 items', [
          { options: [], label: 'a' },
          { options: [], label: 'b' },
          { options: [], price: 1 },
          { label: 'd', options: [{ value: 'o' }] },
        ]),
      ),
    );
    const few = await kit({ name: 'K8', variants: [{ label: 'a', options: [{ value: 'x' }] }] });
    expect(few.body).toEqual(
      invalid(
        one(['variants'], 'variants field must have at least 2 items', [{ label: 'a', options: [{ value: 'x' }] }]),
      ),
    );
  });

  it('a unique violation carries the value', async () => {
    expect((await kit({ name: 'K1', variants: [{ label: 'a' }, { label: 'b' }] })).status).toBe(201);
    expect((await kit({ name: 'K1' })).body).toEqual(invalid(one(['name'], 'This attribute must be unique', 'K1')));
  });
});
