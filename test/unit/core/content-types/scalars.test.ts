import { describe, expect, it } from 'vitest';
import { checkScalar } from '../../../../core/content-types/scalars.ts';
import type { ScalarAttribute, ScalarType } from '../../../../core/content-types/types.ts';

type AttrSpec = ScalarType | ScalarAttribute;
const attrOf = (spec: AttrSpec): ScalarAttribute => (typeof spec === 'string' ? { type: spec } : spec);
const show = (spec: AttrSpec): string => JSON.stringify(attrOf(spec));

const BLOCKS = [
  {
    type: 'paragraph',
    children: [
      { type: 'text', text: 'Hello' },
      { type: 'link', url: 'https://x.y', children: [{ type: 'text', text: 'link' }] },
    ],
  },
  { type: 'image', image: { url: '/a.png', width: 10 } },
];
const NUL = 'a\u0000b';

describe('checkScalar: accepted values and their stored form', () => {
  const cases: Array<[AttrSpec, unknown, unknown]> = [
    // strings
    ['string', 'hello', 'hello'],
    ['string', '', ''],
    ['text', 'multi\nline', 'multi\nline'],
    ['richtext', '# Title', '# Title'],
    ['password', 's3cret!', 's3cret!'],
    [{ type: 'string', minLength: 3, maxLength: 5 }, 'abc', 'abc'],
    [{ type: 'string', minLength: 3, maxLength: 5 }, 'abcde', 'abcde'],
    [{ type: 'string', maxLength: 2 }, '😀😀', '😀😀'],
    [{ type: 'string', regex: '^[a-z]+$' }, 'abc', 'abc'],
    [{ type: 'string', regex: '^[a-z]+$' }, '', ''],
    ['string', 'x'.repeat(1_000_000), 'x'.repeat(1_000_000)],
    ['string', '😀'.repeat(600_000), '😀'.repeat(600_000)],
    ['email', 'jane.doe+tag@example.co.uk', 'jane.doe+tag@example.co.uk'],
    ['email', 'root@localhost', 'root@localhost'],
    ['email', '', ''],
    ['uid', 'my-first_post.v2~draft', 'my-first_post.v2~draft'],
    ['uid', '', ''],
    [{ type: 'uid', regex: '^[a-z-]+$' }, 'hello-world', 'hello-world'],
    [{ type: 'enumeration', enum: ['news', 'tutorial', 'opinion'] }, 'tutorial', 'tutorial'],
    // blocks and json
    ['blocks', BLOCKS, BLOCKS],
    ['blocks', [], []],
    ['json', { a: [1, 'two', null, { b: true }] }, { a: [1, 'two', null, { b: true }] }],
    ['json', [1, 2], [1, 2]],
    ['json', 'text', 'text'],
    ['json', 42.5, 42.5],
    ['json', false, false],
    ['json', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
    // numbers
    ['integer', 42, 42],
    ['integer', -7, -7],
    ['integer', '42', 42],
    ['integer', '-0', 0],
    ['integer', 5.0, 5],
    ['integer', 2147483647, 2147483647],
    ['integer', -2147483648, -2147483648],
    [{ type: 'integer', min: 0, max: 10 }, 0, 0],
    [{ type: 'integer', min: 0, max: 10 }, 10, 10],
    ['biginteger', '9223372036854775807', '9223372036854775807'],
    ['biginteger', '-9223372036854775808', '-9223372036854775808'],
    ['biginteger', 123, '123'],
    ['biginteger', '007', '7'],
    ['biginteger', '-0', '0'],
    [{ type: 'biginteger', min: '-5', max: '9223372036854775806' }, '9223372036854775806', '9223372036854775806'],
    [{ type: 'biginteger', min: 0 }, '0', '0'],
    ['float', 3.14, 3.14],
    ['float', '3.14', 3.14],
    ['float', '-.5', -0.5],
    ['float', '1e3', 1000],
    ['float', 7, 7],
    ['decimal', '19.99', 19.99],
    [{ type: 'decimal', min: 0.5, max: 1.5 }, 1.5, 1.5],
    // booleans
    ['boolean', true, true],
    ['boolean', false, false],
    ['boolean', 'true', true],
    ['boolean', 'false', false],
    ['boolean', '1', true],
    ['boolean', '0', false],
    ['boolean', 1, true],
    ['boolean', 0, false],
    // dates
    ['date', '2024-02-29', '2024-02-29'],
    ['date', '2000-02-29', '2000-02-29'],
    ['date', '0001-01-01', '0001-01-01'],
    ['date', '2024-03-10T12:00:00Z', '2024-03-10'],
    ['date', '2024-03-10T23:30:00-05:00', '2024-03-11'],
    ['date', '2024-03-10T01:00:00+02:00', '2024-03-09'],
    ['date', '2024-03-10T12:00:00', '2024-03-10'],
    ['time', '09:05', '09:05:00'],
    ['time', '23:59:59', '23:59:59'],
    // PostgreSQL's \`time\` text, as Strapi 5.54 returns it: the fraction without trailing zeros
    ['time', '00:00:00.5', '00:00:00.5'],
    ['time', '07:08:09.500', '07:08:09.5'],
    ['time', '07:08:09.120', '07:08:09.12'],
    ['time', '07:08:09.000', '07:08:09'],
    ['time', '12:34:56.789', '12:34:56.789'],
    ['datetime', '2024-03-10T12:34:56.789Z', '2024-03-10T12:34:56.789Z'],
    ['datetime', '2024-03-10T12:34:56Z', '2024-03-10T12:34:56.000Z'],
    ['datetime', '2024-03-10T12:34Z', '2024-03-10T12:34:00.000Z'],
    ['datetime', '2024-03-10T12:34:56+01:00', '2024-03-10T11:34:56.000Z'],
    ['datetime', '2024-03-10T12:34:56-0130', '2024-03-10T14:04:56.000Z'],
    ['datetime', '2024-03-10T12:34:56.123456Z', '2024-03-10T12:34:56.123Z'],
    ['datetime', '2024-03-10 12:34:56', '2024-03-10T12:34:56.000Z'],
    ['datetime', '2024-03-10T12:34:56', '2024-03-10T12:34:56.000Z'],
    ['datetime', '2024-03-10', '2024-03-10T00:00:00.000Z'],
    // epoch milliseconds as a string, which Strapi 5.54 takes (and returns for a timestamp)
    ['datetime', '1715000000000', '2024-05-06T12:53:20.000Z'],
    ['timestamp', '1715000000', '1970-01-20T20:23:20.000Z'],
    ['datetime', '0050-06-01', '0050-06-01T00:00:00.000Z'],
    ['datetime', 0, '1970-01-01T00:00:00.000Z'],
    ['datetime', 1710073496789, '2024-03-10T12:24:56.789Z'],
    ['timestamp', '2024-03-10T12:34:56.789Z', '2024-03-10T12:34:56.789Z'],
    ['timestamp', 1710073496789, '2024-03-10T12:24:56.789Z'],
  ];

  it.each(
    cases.map(([spec, input, output]) => [
      show(spec),
      typeof input === 'string' && input.length > 60 ? `${input.slice(0, 20)}…` : input,
      spec,
      input,
      output,
    ]),
  )('%s accepts %j', (_title, _shown, spec, input, output) => {
    const result = checkScalar(attrOf(spec as AttrSpec), input, ['field']);
    expect(result).toEqual({ ok: true, value: output });
  });
});

describe('checkScalar: rejections', () => {
  const enumAttr: ScalarAttribute = { type: 'enumeration', enum: ['news', 'tutorial', 'opinion'] };
  const cases: Array<[AttrSpec, unknown, string]> = [
    // wrong types: numbers are never coerced to strings
    ['string', 12, 'title must be a `string` type'],
    ['text', true, 'title must be a `string` type'],
    ['richtext', { a: 1 }, 'title must be a `string` type'],
    ['email', 5, 'title must be a `string` type'],
    ['uid', ['a'], 'title must be a `string` type'],
    [enumAttr, 1, 'title must be a `string` type'],
    // string constraints
    ['string', NUL, 'title must not contain NUL characters'],
    ['richtext', NUL, 'title must not contain NUL characters'],
    [enumAttr, NUL, 'title must not contain NUL characters'],
    [{ type: 'string', maxLength: 200 }, 'x'.repeat(201), 'title must be at most 200 characters'],
    [{ type: 'string', maxLength: 1 }, '😀😀', 'title must be at most 1 characters'],
    [{ type: 'string', minLength: 3 }, 'ab', 'title must be at least 3 characters'],
    [{ type: 'text', minLength: 1 }, '', 'title must be at least 1 characters'],
    [{ type: 'string', regex: '^[a-z]+$' }, 'ABC', 'title must match the following: "/^[a-z]+$/"'],
    [{ type: 'string', regex: '^[a-z]+$', required: true }, '', 'title must match the following: "/^[a-z]+$/"'],
    [enumAttr, 'sports', 'title must be one of the following values: news, tutorial, opinion'],
    [enumAttr, '', 'title must be one of the following values: news, tutorial, opinion'],
    ['email', 'not-an-email', 'title must be a valid email'],
    ['email', 'a@b@c.com', 'title must be a valid email'],
    ['email', 'jane doe@example.com', 'title must be a valid email'],
    ['email', `${'a'.repeat(250)}@b.co`, 'title must be a valid email'],
    ['uid', 'hello world', 'title must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    ['uid', 'héllo', 'title must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    [{ type: 'uid', regex: '^[a-z]+$' }, 'abc-1', 'title must match the following: "/^[a-z]+$/"'],
    // integers
    ['integer', 'abc', 'title must be a `number` type'],
    ['integer', '', 'title must be a `number` type'],
    ['integer', ' 5', 'title must be a `number` type'],
    ['integer', '0x10', 'title must be a `number` type'],
    ['integer', true, 'title must be a `number` type'],
    ['integer', Number.NaN, 'title must be a `number` type'],
    ['integer', Number.POSITIVE_INFINITY, 'title must be a `number` type'],
    ['integer', 1.5, 'title must be an integer'],
    ['integer', '2.5', 'title must be an integer'],
    ['integer', 2147483648, 'title must be less than or equal to 2147483647'],
    ['integer', -2147483649, 'title must be greater than or equal to -2147483648'],
    ['integer', 2 ** 60, 'title must be less than or equal to 2147483647'],
    [{ type: 'integer', min: 0 }, -1, 'title must be greater than or equal to 0'],
    [{ type: 'integer', max: 10 }, '11', 'title must be less than or equal to 10'],
    // bigintegers
    ['biginteger', '9223372036854775808', 'title must be less than or equal to 9223372036854775807'],
    ['biginteger', '-9223372036854775809', 'title must be greater than or equal to -9223372036854775808'],
    ['biginteger', '1'.repeat(100_000), 'title must be less than or equal to 9223372036854775807'],
    ['biginteger', `-${'9'.repeat(30)}`, 'title must be greater than or equal to -9223372036854775808'],
    ['biginteger', '12.5', 'title must be an integer'],
    ['biginteger', 1.5, 'title must be an integer'],
    ['biginteger', 2 ** 60, 'title must be sent as a string when beyond 9007199254740991'],
    ['biginteger', 'twelve', 'title must be a `number` type'],
    ['biginteger', '', 'title must be a `number` type'],
    ['biginteger', false, 'title must be a `number` type'],
    [
      { type: 'biginteger', min: '9223372036854775806' },
      '9223372036854775805',
      'title must be greater than or equal to 9223372036854775806',
    ],
    [{ type: 'biginteger', max: 100 }, '101', 'title must be less than or equal to 100'],
    // floats and decimals
    ['float', 'pi', 'title must be a `number` type'],
    ['float', '1e400', 'title must be a `number` type'],
    ['float', null as never, 'title must be a `number` type'],
    ['decimal', [1], 'title must be a `number` type'],
    [{ type: 'float', min: 0.5 }, 0.4, 'title must be greater than or equal to 0.5'],
    [{ type: 'decimal', max: 10 }, '10.01', 'title must be less than or equal to 10'],
    // booleans
    ['boolean', 'yes', 'title must be a `boolean` type'],
    ['boolean', 'TRUE', 'title must be a `boolean` type'],
    ['boolean', 2, 'title must be a `boolean` type'],
    ['boolean', {}, 'title must be a `boolean` type'],
    // dates
    ['date', '2023-02-29', 'title must be a valid date'],
    ['date', '2023-02-30', 'title must be a valid date'],
    ['date', '2024-04-31', 'title must be a valid date'],
    ['date', '2024-13-01', 'title must be a valid date'],
    ['date', '2024-00-10', 'title must be a valid date'],
    ['date', '1900-02-29', 'title must be a valid date'],
    ['date', '2024-1-5', 'title must be a valid date'],
    ['date', '10/03/2024', 'title must be a valid date'],
    ['date', 'yesterday', 'title must be a valid date'],
    ['date', 1710073496789, 'title must be a valid date'],
    ['date', '2024-03-10T25:00:00Z', 'title must be a valid date'],
    ['time', '24:00', 'title must be a valid time'],
    ['time', '12:60', 'title must be a valid time'],
    ['time', '12:30:60', 'title must be a valid time'],
    ['time', '9:30', 'title must be a valid time'],
    ['time', '12:30:00.1234', 'title must be a valid time'],
    ['time', '12:30:00Z', 'title must be a valid time'],
    ['time', 930, 'title must be a valid time'],
    ['datetime', '2023-02-30T10:00:00Z', 'title must be a valid date'],
    ['datetime', '2024-03-10T24:00:00Z', 'title must be a valid date'],
    ['datetime', '2024-03-10T12:00:61Z', 'title must be a valid date'],
    ['datetime', '2024-03-10T12:00:00+24:00', 'title must be a valid date'],
    ['datetime', 'March 10, 2024', 'title must be a valid date'],
    ['datetime', '2024-03-10T12', 'title must be a valid date'],
    ['datetime', '', 'title must be a valid date'],
    ['datetime', '9999-12-31T23:00:00-05:00', 'title must be a valid date'],
    ['date', '9999-12-31T23:00:00-05:00', 'title must be a valid date'],
    ['date', '0000-01-01T00:30:00+01:00', 'title must be a valid date'],
    ['datetime', 8.64e15 + 1, 'title must be a valid date'],
    ['datetime', 1e15, 'title must be a valid date'],
    ['datetime', Number.NaN, 'title must be a valid date'],
    ['timestamp', true, 'title must be a valid date'],
    ['timestamp', '2023-02-29', 'title must be a valid date'],
    // json
    ['json', { text: NUL }, 'title must not contain NUL characters'],
    ['json', { [NUL]: 1 }, 'title must not contain NUL characters'],
    ['json', [[[NUL]]], 'title must not contain NUL characters'],
    ['json', NUL, 'title must not contain NUL characters'],
    ['json', { a: undefined }, 'title must be a valid JSON'],
    ['json', { a: Number.NaN }, 'title must be a valid JSON'],
    ['json', { when: new Date(0) }, 'title must be a valid JSON'],
    ['json', () => 1, 'title must be a valid JSON'],
    ['json', [Symbol('s')], 'title must be a valid JSON'],
    // blocks
    ['blocks', 'hello', 'title must be an array of blocks'],
    ['blocks', { type: 'paragraph' }, 'title must be an array of blocks'],
    ['blocks', [{ children: [] }], 'title must be an array of blocks'],
    ['blocks', ['paragraph'], 'title must be an array of blocks'],
    ['blocks', [{ type: 1 }], 'title must be an array of blocks'],
    ['blocks', [{ type: 'paragraph', children: 'text' }], 'title must be an array of blocks'],
    ['blocks', [{ type: 'paragraph', children: ['text'] }], 'title must be an array of blocks'],
    [
      'blocks',
      [{ type: 'list', children: [{ type: 'list-item', children: [null] }] }],
      'title must be an array of blocks',
    ],
    [
      'blocks',
      [{ type: 'paragraph', children: [{ type: 'text', text: NUL }] }],
      'title must not contain NUL characters',
    ],
    ['blocks', [{ type: NUL }], 'title must not contain NUL characters'],
  ];

  it.each(
    cases.map(([spec, input, message]) => [
      show(spec),
      typeof input === 'string' && input.length > 60 ? `${input.slice(0, 20)}…` : input,
      spec,
      input,
      message,
    ]),
  )('%s rejects %j', (_title, _shown, spec, input, message) => {
    const result = checkScalar(attrOf(spec as AttrSpec), input, ['title']);
    expect(result).toEqual({ ok: false, issue: { path: ['title'], message, name: 'ValidationError', value: input } });
  });
});

describe('checkScalar: issue details', () => {
  it('labels the message with the path as Strapi (yup) writes it, indices in brackets, and copies the path', () => {
    const path = ['blocks', '0', 'items', '2', 'views'];
    const result = checkScalar({ type: 'integer', min: 0 }, -1, path);
    expect(result).toEqual({
      ok: false,
      issue: {
        path,
        message: 'blocks[0].items[2].views must be greater than or equal to 0',
        name: 'ValidationError',
        value: -1,
      },
    });
    if (!result.ok) {
      expect(result.issue.path).not.toBe(path);
    }
  });

  it('falls back to "this" for an empty path', () => {
    const result = checkScalar({ type: 'boolean' }, 'maybe', []);
    expect(result.ok ? '' : result.issue.message).toBe('this must be a `boolean` type');
  });

  it('refuses a password over 72 bytes (bcrypt would ignore the rest), counting UTF-8 bytes', () => {
    expect(checkScalar({ type: 'password' }, 'x'.repeat(72), ['password']).ok).toBe(true);
    expect(checkScalar({ type: 'password' }, 'x'.repeat(73), ['password'])).toEqual({
      ok: false,
      issue: { path: ['password'], message: 'password must be at most 72 bytes (UTF-8)', name: 'ValidationError' },
    });
    // 25 three-byte characters are 75 bytes
    expect(checkScalar({ type: 'password' }, '€'.repeat(25), ['password']).ok).toBe(false);
  });

  it('never echoes a password', () => {
    const result = checkScalar({ type: 'password', minLength: 8 }, 'short', ['password']);
    expect(result).toEqual({
      ok: false,
      issue: { path: ['password'], message: 'password must be at least 8 characters', name: 'ValidationError' },
    });
  });

  it('rejects a string over 1,000,000 characters without echoing it', () => {
    const result = checkScalar({ type: 'text' }, 'x'.repeat(1_000_001), ['body']);
    expect(result).toEqual({
      ok: false,
      issue: { path: ['body'], message: 'body must be at most 1000000 characters', name: 'ValidationError' },
    });
  });

  it.each(['json', 'blocks'] as const)('rejects %s over 5 MB without echoing it', (type) => {
    const big = [{ type: 'paragraph', children: [{ type: 'text', text: 'x'.repeat(5 * 1024 * 1024) }] }];
    const result = checkScalar({ type }, big, ['content']);
    expect(result).toEqual({
      ok: false,
      issue: { path: ['content'], message: 'content must be at most 5 MB as JSON', name: 'ValidationError' },
    });
  });

  it('accepts json just under 5 MB', () => {
    const value = { text: 'x'.repeat(5 * 1024 * 1024 - 20) };
    expect(checkScalar({ type: 'json' }, value, ['meta']).ok).toBe(true);
  });

  it('counts bytes, not characters, for the json size cap', () => {
    const value = ['é'.repeat(3 * 1024 * 1024)];
    const result = checkScalar({ type: 'json' }, value, ['meta']);
    expect(result.ok ? '' : result.issue.message).toBe('meta must be at most 5 MB as JSON');
  });

  it('rejects json with a cycle, without echoing it', () => {
    const value: Record<string, unknown> = {};
    value.self = value;
    const result = checkScalar({ type: 'json' }, value, ['meta']);
    expect(result).toEqual({
      ok: false,
      issue: { path: ['meta'], message: 'meta must not be nested more than 200 levels deep', name: 'ValidationError' },
    });
  });

  const nest = (levels: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
    return value;
  };

  it('accepts json nested 200 levels deep', () => {
    const deep = nest(200);
    const result = checkScalar({ type: 'json' }, deep, ['meta']);
    // Compare by identity: a deep toEqual is slow and pointless here.
    expect(result.ok && result.value === deep).toBe(true);
  });

  it.each([201, 100_000])('rejects json nested %i levels deep without overflowing the stack', (levels) => {
    const result = checkScalar({ type: 'json' }, nest(levels), ['meta']);
    expect(result.ok ? '' : result.issue.message).toBe('meta must not be nested more than 200 levels deep');
  });

  it('rejects deeply nested blocks', () => {
    let children: unknown[] = [{ type: 'text', text: 'x' }];
    for (let i = 0; i < 300; i++) children = [{ type: 'list-item', children }];
    const result = checkScalar({ type: 'blocks' }, [{ type: 'list', children }], ['body']);
    expect(result.ok ? '' : result.issue.message).toBe('body must not be nested more than 200 levels deep');
  });

  it('returns the same object for json and blocks (stored as is)', () => {
    const value = { a: 1 };
    const result = checkScalar({ type: 'json' }, value, ['meta']);
    expect(result.ok && result.value).toBe(value);
  });
});
