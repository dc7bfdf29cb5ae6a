import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcrypt';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

/**
 * One content-type with every scalar attribute type and every option, so each type's round
 * trip and each validation rule is checked through HTTP against what is stored.
 */
const everything = {
  kind: 'collectionType',
  collectionName: 'everythings',
  info: { singularName: 'everything', pluralName: 'everythings' },
  options: { draftAndPublish: false },
  attributes: {
    str: { type: 'string', minLength: 2, maxLength: 10 },
    req: { type: 'string', required: true },
    txt: { type: 'text' },
    rich: { type: 'richtext' },
    blk: { type: 'blocks' },
    enm: { type: 'enumeration', enum: ['a', 'b'], default: 'a' },
    mail: { type: 'email' },
    pass: { type: 'password', minLength: 6 },
    slug: { type: 'uid', targetField: 'str' },
    day: { type: 'date' },
    clock: { type: 'time' },
    when: { type: 'datetime' },
    stamp: { type: 'timestamp' },
    int: { type: 'integer', min: 0, max: 100 },
    big: { type: 'biginteger' },
    flt: { type: 'float', min: -1.5 },
    dec: { type: 'decimal' },
    flag: { type: 'boolean', default: false },
    js: { type: 'json' },
    code: { type: 'string', regex: '^[A-Z]{3}$' },
    uniq: { type: 'string', unique: true },
    secret: { type: 'string', private: true },
    dflt: { type: 'integer', default: 7 },
  },
};

let t: TestApp;
const create = (data: Record<string, unknown>) => t.request('POST', '/api/everythings', { data });
const stored = async (documentId: string) =>
  (await t.sql('everythings').first('data').where('document_id', documentId)).data;

beforeAll(async () => {
  const appDir = await writeApp({ contentTypes: { everything } });
  t = await startApp({ appDir });
});
afterAll(async () => {
  await t?.close();
});

describe('round trip of every attribute type', () => {
  it('stores and returns each type in its canonical form', async () => {
    const blocks = [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }];
    const res = await create({
      str: 'hello',
      req: 'r',
      txt: 'long text',
      rich: '# title',
      blk: blocks,
      enm: 'b',
      mail: 'a@b.co',
      pass: 'secret1',
      slug: 'my-slug_1.~',
      day: '2024-02-29',
      clock: '12:30',
      when: '2024-01-02T03:04:05Z',
      stamp: 1700000000000,
      int: '42',
      big: '9007199254740993',
      flt: 1.25,
      dec: '12.5',
      flag: 'true',
      js: { nested: [1, 'two', null, { three: true }] },
      code: 'ABC',
      uniq: 'u1',
    });
    expect(res.status).toBe(201);
    const doc = res.body.data;
    expect(doc).toMatchObject({
      str: 'hello',
      req: 'r',
      txt: 'long text',
      rich: '# title',
      blk: blocks,
      enm: 'b',
      mail: 'a@b.co',
      slug: 'my-slug_1.~',
      day: '2024-02-29',
      clock: '12:30:00',
      when: '2024-01-02T03:04:05.000Z',
      // a timestamp comes back as Strapi 5.54 returns it: epoch milliseconds, as a string
      stamp: '1700000000000',
      int: 42,
      big: '9007199254740993',
      flt: 1.25,
      dec: 12.5,
      flag: true,
      js: { nested: [1, 'two', null, { three: true }] },
      code: 'ABC',
      uniq: 'u1',
      dflt: 7,
    });
    expect(typeof doc.id).toBe('number');
    expect(doc.documentId).toMatch(/^[a-z0-9]{24}$/);
    expect(Object.keys(doc).slice(-3)).toEqual(['createdAt', 'updatedAt', 'publishedAt']);
    // the same document read back, not just the write's echo
    const read = await t.request('GET', `/api/everythings/${doc.documentId}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: doc, meta: {} });
  });

  it('hashes passwords with bcrypt and never returns them', async () => {
    const res = await create({ req: 'r', pass: 'hunter22' });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('pass');
    const data = await stored(res.body.data.documentId);
    expect(data.pass).toMatch(/^\$2[aby]\$/);
    expect(await bcrypt.compare('hunter22', data.pass)).toBe(true);
    const list = await t.request('GET', '/api/everythings');
    expect(JSON.stringify(list.body)).not.toContain(data.pass);
  });

  it('keeps private attributes out of responses and out of REST writes', async () => {
    const res = await create({ req: 'r', secret: 'classified' });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('secret');
    // Strapi strips private attributes from content-API input rather than rejecting them
    expect((await stored(res.body.data.documentId)).secret).toBeUndefined();
    const viaService = await t.app
      .documents('api::everything.everything')
      .create({ data: { req: 'r', secret: 'inside' } });
    const read = await t.request('GET', `/api/everythings/${viaService.documentId}`);
    expect(read.body.data).not.toHaveProperty('secret');
    expect(JSON.stringify(read.body)).not.toContain('inside');
  });

  it('applies defaults on create and returns null for unset attributes', async () => {
    const res = await create({ req: 'r' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ enm: 'a', flag: false, dflt: 7, str: null, js: null, day: null, big: null });
  });

  it('updates partially: untouched attributes keep their value, null clears one', async () => {
    const { body } = await create({ req: 'r', str: 'keep', int: 5, txt: 'gone' });
    const res = await t.request('PUT', `/api/everythings/${body.data.documentId}`, { data: { int: 6, txt: null } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ str: 'keep', int: 6, txt: null, req: 'r' });
    expect(res.body.data.createdAt).toBe(body.data.createdAt);
    expect(new Date(res.body.data.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(body.data.updatedAt).getTime());
  });
});

describe('validation rules', () => {
  const cases: Array<[string, Record<string, unknown>, string[], RegExp]> = [
    // Strapi 5.54 words a required value never sent apart from a null one
    ['required missing', {}, ['req'], /^req must be defined\.$/],
    ['required null', { req: null }, ['req'], /^req must be a `string` type, but the final value was: `null`\.$/],
    ['string type', { req: 'r', str: 12 }, ['str'], /str must be a `string` type/],
    ['minLength', { req: 'r', str: 'a' }, ['str'], /str must be at least 2 characters/],
    ['maxLength', { req: 'r', str: 'abcdefghijk' }, ['str'], /str must be at most 10 characters/],
    ['regex', { req: 'r', code: 'abc' }, ['code'], /code must match the following/],
    ['enumeration', { req: 'r', enm: 'c' }, ['enm'], /enm must be one of the following values: a, b/],
    ['email', { req: 'r', mail: 'not-an-email' }, ['mail'], /mail must be a valid email/],
    ['uid pattern', { req: 'r', slug: 'has space' }, ['slug'], /slug must match the following/],
    ['password minLength', { req: 'r', pass: 'short' }, ['pass'], /pass must be at least 6 characters/],
    ['integer type', { req: 'r', int: 'abc' }, ['int'], /int must be a `number` type/],
    ['integer fraction', { req: 'r', int: 1.5 }, ['int'], /int must be an integer/],
    ['integer min', { req: 'r', int: -1 }, ['int'], /int must be greater than or equal to 0/],
    ['integer max', { req: 'r', int: 101 }, ['int'], /int must be less than or equal to 100/],
    ['biginteger', { req: 'r', big: '12x' }, ['big'], /big must be/],
    ['float min', { req: 'r', flt: -2 }, ['flt'], /flt must be greater than or equal to -1.5/],
    ['decimal type', { req: 'r', dec: 'twelve' }, ['dec'], /dec must be a `number` type/],
    ['boolean', { req: 'r', flag: 'yes' }, ['flag'], /flag must be a `boolean` type/],
    ['date', { req: 'r', day: '2023-02-30' }, ['day'], /day must be a valid date/],
    ['time', { req: 'r', clock: '25:00' }, ['clock'], /clock must be a valid time/],
    ['datetime', { req: 'r', when: 'yesterday' }, ['when'], /when must be a valid date/],
    ['blocks', { req: 'r', blk: 'plain text' }, ['blk'], /blk must be/],
  ];

  it.each(cases)('%s → 400 ValidationError naming the attribute', async (_name, data, path, message) => {
    const before = await t.sql('everythings').count({ n: '*' }).first();
    const res = await create(data);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    const errors = res.body.error.details.errors;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ path, name: 'ValidationError' });
    expect(errors[0].message).toMatch(message);
    expect(res.body.error.message).toBe(errors[0].message);
    expect(await t.sql('everythings').count({ n: '*' }).first()).toEqual(before);
  });

  it('lists every problem at once', async () => {
    const res = await create({ str: 1, int: -5, enm: 'z', mail: 'x' });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.errors.map((e: { path: string[] }) => e.path.join('.'));
    expect(paths.sort()).toEqual(['enm', 'int', 'mail', 'req', 'str']);
    expect(res.body.error.message).toBe('5 errors occurred');
  });

  it('rejects null for a required attribute on update but allows omitting it', async () => {
    const { body } = await create({ req: 'r' });
    const nulled = await t.request('PUT', `/api/everythings/${body.data.documentId}`, { data: { req: null } });
    expect(nulled.status).toBe(400);
    const omitted = await t.request('PUT', `/api/everythings/${body.data.documentId}`, { data: { str: 'ok' } });
    expect(omitted.status).toBe(200);
    expect(omitted.body.data.req).toBe('r');
  });

  it('enforces unique values with the database and names the attribute', async () => {
    expect((await create({ req: 'r', uniq: 'same' })).status).toBe(201);
    const dup = await create({ req: 'r', uniq: 'same' });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique' });
    expect(dup.body.error.details.errors[0].path).toEqual(['uniq']);
    // updating another document to the taken value is refused too
    const other = await create({ req: 'r', uniq: 'other' });
    const clash = await t.request('PUT', `/api/everythings/${other.body.data.documentId}`, { data: { uniq: 'same' } });
    expect(clash.status).toBe(400);
    expect((await stored(other.body.data.documentId)).uniq).toBe('other');
  });

  it('lets exactly one of many concurrent creates of a unique value succeed, with no partial rows', async () => {
    const attempts = await Promise.all(Array.from({ length: 12 }, () => create({ req: 'r', uniq: 'race' })));
    const statuses = attempts.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(11);
    const rows = await t.sql('everythings').whereRaw(`data->>'uniq' = 'race'`).count({ n: '*' }).first();
    expect(Number(rows!.n)).toBe(1);
  });
});

// What Strapi 5.54 answers for the same writes and reads (its `timestamp` is a string of epoch
// milliseconds; its `time` is PostgreSQL's text, without trailing zeros in the fraction)
describe('dates and times as Strapi returns them', () => {
  const one = async (documentId: string) => (await t.request('GET', `/api/everythings/${documentId}`)).body.data;

  it('a timestamp is returned as epoch milliseconds in a string, however it was written', async () => {
    const writes: Array<[unknown, string]> = [
      ['2024-05-06T07:08:09.123Z', '1714979289123'],
      [1715000000000, '1715000000000'],
      ['1715000000000', '1715000000000'],
      ['2024-05-06T07:08:09+02:00', '1714972089000'],
      ['1715000000', '1715000000'],
    ];
    for (const [stamp, expected] of writes) {
      const res = await create({ req: 'stamp', stamp });
      expect(res.status, JSON.stringify(stamp)).toBe(201);
      expect(res.body.data.stamp).toBe(expected);
      expect((await one(res.body.data.documentId)).stamp).toBe(expected);
    }
    // stored as ISO text, so it still sorts and compares as an instant
    const list = await t.request('GET', '/api/everythings?filters[req]=stamp&sort=stamp:desc&fields[0]=stamp');
    expect(list.body.data.map((d: { stamp: string }) => d.stamp)).toEqual([
      '1715000000000',
      '1715000000000',
      '1714979289123',
      '1714972089000',
      '1715000000',
    ]);
    const eq = await t.request('GET', '/api/everythings?filters[stamp][$eq]=1715000000000&fields[0]=stamp');
    expect(eq.body.data).toHaveLength(2);
    const iso = await t.request(
      'GET',
      '/api/everythings?filters[stamp][$lt]=2024-05-06T12:00:00Z&filters[req]=stamp&fields[0]=stamp',
    );
    expect(iso.body.data.map((d: { stamp: string }) => d.stamp).sort()).toEqual([
      '1714972089000',
      '1714979289123',
      '1715000000',
    ]);
    // what a client reads, it can write back
    const back = await create({ req: 'stamp-back', stamp: eq.body.data[0].stamp });
    expect(back.body.data.stamp).toBe('1715000000000');
  });

  it('a datetime also takes epoch ms, returned as ISO text; a time keeps only a significant fraction', async () => {
    const res = await create({ req: 'r', when: '1715000000000', clock: '07:08:09.500', day: '2024-05-06T10:00:00Z' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({ when: '2024-05-06T12:53:20.000Z', clock: '07:08:09.5', day: '2024-05-06' });
    for (const [clock, expected] of [
      ['07:08:09.120', '07:08:09.12'],
      ['07:08:09.000', '07:08:09'],
      ['07:08:09.123', '07:08:09.123'],
    ]) {
      expect((await create({ req: 'r', clock })).body.data.clock).toBe(expected);
    }
  });

  it("an unreadable timestamp filter is refused in Strapi's words", async () => {
    const res = await t.request('GET', '/api/everythings?filters[stamp][$eq]=abc');
    expect(res.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid format, expected a timestamp or an ISO date',
      details: {},
    });
  });
});
