/**
 * Seeded property-based fuzzing of the content API and of the scalar validators. Whatever
 * the body or query string, the server answers below 500, every 4xx is Strapi's envelope, a
 * created document can be read back, and no failed request leaves a row behind.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { checkScalar, type CheckMode } from '../../core/content-types/scalars.ts';
import { fieldLabel } from '../../core/errors.ts';
import { SCALAR_TYPES, type ScalarAttribute } from '../../core/content-types/types.ts';

// Fixed seeds: a failure reproduces run after run (fast-check prints the path to shrink from).
const SEED = 0x5eed_2024;
const RUNS = 150;

let t: TestApp;
const ids = { article: '', authors: [] as string[], tags: [] as string[] };
const stats = { creates: 0, rejected: 0 };

const ARTICLE_ATTRIBUTES = [
  'title',
  'slug',
  'summary',
  'body',
  'views',
  'rating',
  'price',
  'isFeatured',
  'publishDate',
  'readingTime',
  'meta',
  'category',
  'contactEmail',
  'internalNotes',
  'author',
  'tags',
  'cover',
  'gallery',
  'seo',
  'blocks',
] as const;
const COMPONENTS = ['shared.rich-text', 'shared.quote', 'shared.media', 'shared.slider'];

// ---------------------------------------------------------------------------------------
// Generators. Bodies are built as JSON *text*: a JS object cannot hold a `__proto__` key
// as data, and deep nesting is cheaper to write as text than to build and stringify.
// ---------------------------------------------------------------------------------------

type Text = fc.Arbitrary<string>;
const json = (arb: fc.Arbitrary<unknown>): Text => arb.map((v) => JSON.stringify(v));
const objectText = (entries: fc.Arbitrary<Array<[string, string]>>): Text =>
  entries.map((list) => `{${list.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

const nulString = fc
  .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }))
  .map(([a, b]) => `${a}\u0000${b}`);
/** Any UTF-16 code units: control characters, lone surrogates (JSON.stringify escapes them). */
const rawString = fc.string({ unit: 'binary', maxLength: 20 });
const deep = fc
  .tuple(fc.integer({ min: 20, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? '['.repeat(depth) + ']'.repeat(depth) : `${'{"a":'.repeat(depth)}null${'}'.repeat(depth)}`,
  );
const oddNumber = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e308',
  '-0',
  '-0.0',
  '0.1',
  '123456789012345678901234567890',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '"NaN"',
  '"Infinity"',
  '"-Infinity"',
  '"-0"',
  '"0x1F"',
  '"1e5"',
  '""',
  '" 1"',
  '"1_000"',
);
// the documents exist only once beforeAll ran: pick among them when a value is generated
const realId = fc.nat(5).map((i) => [ids.article, ...ids.authors, ...ids.tags][i]);
const randomId = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.stringMatching(/^[a-z0-9]{24}$/),
  fc.constant("' OR '1'='1"),
);
const anyId = fc.oneof(realId, realId, randomId, fc.integer(), fc.constant(null));

/** Any JSON value, sometimes with a hostile twist. */
const hostile: Text = fc.oneof(
  { weight: 4, arbitrary: json(fc.jsonValue({ maxDepth: 3 })) },
  { weight: 1, arbitrary: json(nulString) },
  { weight: 1, arbitrary: json(rawString) },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 1_100_000 }).map((n) => JSON.stringify('x'.repeat(n))) },
  {
    weight: 1,
    arbitrary: objectText(
      fc.array(
        fc.tuple(
          fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'),
          json(fc.jsonValue({ maxDepth: 2 })),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    ),
  },
  { weight: 1, arbitrary: json(fc.object({ maxDepth: 2 })) },
);

const relationValue: Text = fc.oneof(
  json(anyId),
  json(fc.array(anyId, { maxLength: 4 })),
  json(
    fc.record(
      {
        connect: fc.array(
          fc.oneof(
            anyId,
            fc.record({ documentId: anyId, position: fc.option(fc.record({ before: anyId }), { nil: undefined }) }),
          ),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: [] },
    ),
  ),
  json(
    fc.record(
      { disconnect: fc.array(anyId, { maxLength: 3 }), set: fc.array(anyId, { maxLength: 3 }) },
      { requiredKeys: [] },
    ),
  ),
  json(fc.record({ documentId: anyId })),
  hostile,
);

const componentValue: Text = objectText(
  fc.array(
    fc.tuple(
      fc.constantFrom('metaTitle', 'metaDescription', 'shareImage', 'keywords', 'id', '__proto__', 'nope'),
      fc.oneof(
        json(fc.string({ maxLength: 20 })),
        json(fc.array(fc.record({ value: fc.string() }), { maxLength: 2 })),
        hostile,
      ),
    ),
    { maxLength: 4 },
  ),
);

const dynamicZoneValue: Text = fc
  .array(
    fc.oneof(
      objectText(
        fc
          .tuple(
            fc.constantFrom(...COMPONENTS, 'shared.seo', 'nope'),
            fc.array(
              fc.tuple(
                fc.constantFrom('body', 'title', 'person', 'file', 'files', 'id', '__proto__'),
                fc.oneof(json(fc.string({ maxLength: 20 })), relationValue, hostile),
              ),
              { maxLength: 3 },
            ),
          )
          .map(([component, rest]) => [['__component', JSON.stringify(component)], ...rest] as Array<[string, string]>),
      ),
      hostile,
    ),
    { maxLength: 3 },
  )
  .map((items) => `[${items.join(',')}]`);

/** A value for one attribute: usually of a plausible shape, often of a wrong one. */
function valueFor(name: string): Text {
  const plausible: Record<string, Text> = {
    title: json(fc.oneof(fc.string({ maxLength: 250 }), rawString)),
    slug: json(fc.string({ maxLength: 20 })),
    summary: json(fc.oneof(fc.string(), rawString)),
    body: json(
      fc.array(
        fc.record({
          type: fc.constantFrom('paragraph', 'heading'),
          children: fc.array(fc.record({ type: fc.constant('text'), text: fc.string() }), { maxLength: 2 }),
        }),
        { maxLength: 2 },
      ),
    ),
    views: json(fc.oneof(fc.integer(), fc.double())),
    rating: json(fc.double()),
    price: json(fc.oneof(fc.double(), fc.string())),
    isFeatured: json(fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', '1', '0', 'yes'))),
    publishDate: json(
      fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.string({ maxLength: 12 }),
      ),
    ),
    readingTime: json(fc.oneof(fc.constantFrom('12:30', '23:59:59.999', '24:00'), fc.string({ maxLength: 8 }))),
    meta: json(fc.jsonValue({ maxDepth: 4 })),
    category: json(fc.oneof(fc.constantFrom('news', 'tutorial', 'opinion'), fc.string({ maxLength: 8 }))),
    contactEmail: json(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 20 }))),
    internalNotes: json(fc.string()),
    author: relationValue,
    tags: relationValue,
    cover: json(fc.oneof(fc.integer(), fc.array(fc.integer(), { maxLength: 2 }))),
    gallery: json(fc.array(fc.oneof(fc.integer(), fc.record({ id: fc.integer() })), { maxLength: 2 })),
    seo: componentValue,
    blocks: dynamicZoneValue,
  };
  return fc.oneof({ weight: 4, arbitrary: plausible[name] ?? hostile }, { weight: 1, arbitrary: hostile });
}

const attributeEntry: fc.Arbitrary<[string, string]> = fc
  .constantFrom(...ARTICLE_ATTRIBUTES)
  .chain((name) => valueFor(name).map((v): [string, string] => [name, v]));
const strayEntry: fc.Arbitrary<[string, string]> = fc.tuple(
  fc.oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'prototype',
      'id',
      'documentId',
      'locale',
      'publishedAt',
      'createdAt',
      'hasOwnProperty',
    ),
    fc.string({ maxLength: 12 }),
  ),
  hostile,
);
const validTitle: fc.Arbitrary<[string, string]> = fc
  .string({ minLength: 1, maxLength: 60 })
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this strips
  .map((s): [string, string] => ['title', JSON.stringify(s.replace(/\u0000/g, ''))]);

/** `data` payloads: real attributes, mostly with a valid title so some writes succeed. */
const dataText: Text = fc
  .tuple(
    fc.option(validTitle, { freq: 6, nil: null }),
    fc.array(fc.oneof({ weight: 8, arbitrary: attributeEntry }, { weight: 1, arbitrary: strayEntry }), {
      maxLength: 4,
    }),
  )
  .map(([title, rest]) => (title ? [title, ...rest] : rest))
  .chain((entries) => objectText(fc.constant(entries)));

/** Whole request bodies, from plausible to garbage. */
const bodyText: Text = fc.oneof(
  { weight: 16, arbitrary: dataText.map((d) => `{"data":${d}}`) },
  { weight: 1, arbitrary: hostile.map((v) => `{"data":${v}}`) },
  { weight: 1, arbitrary: hostile },
  {
    weight: 1,
    arbitrary: objectText(
      fc.array(fc.tuple(fc.constantFrom('data', '__proto__', 'meta', 'x'), fc.oneof(dataText, hostile)), {
        maxLength: 3,
      }),
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

const queryKey = fc.oneof(
  fc.constantFrom(
    'populate',
    'populate[0]',
    'status',
    'locale',
    'pagination[page]',
    'pagination[pageSize]',
    'pagination[start]',
    'pagination[limit]',
    'pagination[withCount]',
    'pagination',
    'filters[title][$eq]',
    'sort',
    'fields[0]',
    'publicationState',
    '__proto__[x]',
    'populate[__proto__]',
  ),
  fc.constantFrom(...ARTICLE_ATTRIBUTES).map((a) => `populate[${a}]`),
  fc.constantFrom('author', 'tags', 'seo', 'blocks', 'cover', 'gallery').map((a) => `populate[${a}]`),
  fc.constantFrom(...ARTICLE_ATTRIBUTES).map((a) => `populate[${a}][populate][${a}]`),
  fc.constantFrom('author', 'seo', 'blocks').map((a) => `populate[${a}][on][shared.quote][populate]`),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
  fc.string({ maxLength: 10 }),
);
/** Values that reach SQL or parsers: NUL, broken percent-encoding, control characters, long runs. */
const nastyQueryValue = fc.oneof(
  fc.constantFrom(
    '%00',
    'en%00',
    '%00%00',
    '%ZZ',
    '%E0%A4%A',
    '%ED%A0%80',
    '%FF',
    '%',
    '%%',
    '+',
    '%2500',
    '..',
    "'",
    '"',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }).map(encodeURIComponent),
  fc.integer({ min: 33, max: 5_000 }).map((n) => 'x'.repeat(n)),
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '*',
    'true',
    'false',
    'draft',
    'published',
    '-1',
    '0',
    '1',
    '25',
    '1e3',
    'author',
    'tags',
    'seo',
    'blocks',
    'author.articles',
    'en',
    'fr',
  ),
  nastyQueryValue,
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.string({ maxLength: 12 }),
);
const queryString = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.tuple(queryKey, queryValue).map(([k, v]) => `${k}=${v}`) },
      // the parameters whose values the server uses as they come
      {
        weight: 3,
        arbitrary: fc
          .tuple(
            fc.constantFrom('locale', 'locale', 'status', 'populate', 'pagination[page]', 'pagination[limit]'),
            nastyQueryValue,
          )
          .map(([k, v]) => `${k}=${v}`),
      },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    ),
    { maxLength: 4 },
  )
  .map((parts) => (parts.length === 0 ? '' : `?${parts.join('&')}`));
/** Writes mostly without a query string, so the body gets past query parsing to be tested. */
const writeQuery = fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryString });

// ---------------------------------------------------------------------------------------

/** The checks every single response must pass. */
function expectSane(res: TestResponse): void {
  expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    expect(res.body).toEqual({
      data: null,
      error: { status: res.status, name: expect.any(String), message: expect.any(String), details: expect.any(Object) },
    });
    expect(Array.isArray(res.body.error.details)).toBe(false);
  }
  expect(res.text).not.toMatch(/\bselect\s|\binsert\s|node_modules|\bat\s+\S*\s*\(?(?:file:\/\/|node:|\/)\S*:\d+:\d+/i);
}

/** A created document is readable: as published, or as a draft (once draft & publish exists). */
async function expectReadable(doc: { documentId: string; locale?: string }): Promise<void> {
  const locale = doc.locale === undefined ? '' : `&locale=${encodeURIComponent(doc.locale)}`;
  const published = await t.request('GET', `/api/articles/${doc.documentId}?status=published${locale}`);
  const found =
    published.status === 200
      ? published
      : await t.request('GET', `/api/articles/${doc.documentId}?status=draft${locale}`);
  expect(found.status, found.text.slice(0, 300)).toBe(200);
  expect(found.body.data.documentId).toBe(doc.documentId);
}

// documents, not rows: a published document is two rows (its draft and its published copy)
const countArticles = async (): Promise<number> =>
  Number((await t.sql('articles').countDistinct({ n: 'document_id' }).first())!.n);

beforeAll(async () => {
  t = await startApp();
  for (const name of ['Ada', 'Grace'])
    ids.authors.push((await t.request('POST', '/api/authors', { data: { name } })).body.data.documentId);
  for (const name of ['one', 'two', 'three'])
    ids.tags.push((await t.request('POST', '/api/tags', { data: { name } })).body.data.documentId);
  const article = await t.request('POST', '/api/articles', {
    data: { title: 'Target', author: ids.authors[0], tags: ids.tags.slice(0, 2) },
  });
  expect(article.status).toBe(201);
  ids.article = article.body.data.documentId;
});

afterAll(async () => {
  await t?.close();
});

describe('fuzzing the content API', () => {
  let initialArticles = 0;
  beforeAll(async () => {
    initialArticles = await countArticles();
  });

  it('POST /api/articles: never a 5xx, 4xx in the envelope, 2xx readable', async () => {
    await fc.assert(
      fc.asyncProperty(bodyText, writeQuery, async (body, query) => {
        const res = await t.request('POST', `/api/articles${query}`, body, { 'content-type': 'application/json' });
        expectSane(res);
        if (res.status >= 200 && res.status < 300) {
          expect(res.status).toBe(201);
          stats.creates++;
          await expectReadable(res.body.data);
        } else {
          stats.rejected++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // the generators must reach both sides, or this test proves little
    expect(stats.creates).toBeGreaterThan(5);
    expect(stats.rejected).toBeGreaterThan(RUNS / 3);
  });

  it('PUT /api/articles/:documentId: never a 5xx, 4xx in the envelope, 2xx is the same document', async () => {
    let updated = 0;
    await fc.assert(
      fc.asyncProperty(bodyText, writeQuery, async (body, query) => {
        const res = await t.request('PUT', `/api/articles/${ids.article}${query}`, body, {
          'content-type': 'application/json',
        });
        expectSane(res);
        if (res.status < 300) {
          expect(res.status).toBe(200);
          expect(res.body.data.documentId).toBe(ids.article);
          updated++;
        }
      }),
      { seed: SEED + 1, numRuns: RUNS },
    );
    expect(updated).toBeGreaterThan(5);
  });

  it('GET with random query strings: never a 5xx, 4xx in the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(
        queryString,
        fc.constantFrom(
          '/api/articles',
          '/api/articles',
          '/api/articles/:id',
          '/api/articles/:id',
          '/api/global',
          '/api/tags',
          '/api/articles/%00',
          '/api/articles/%ZZ',
        ),
        async (query, base) => {
          const res = await t.request('GET', base.replace(':id', ids.article) + query);
          expectSane(res);
        },
      ),
      { seed: SEED + 2, numRuns: RUNS },
    );
  });

  it('random Authorization headers: never a 5xx; anything but a valid credential is a 401', async () => {
    const header = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 300 }).map((v) => `Bearer ${v}`),
      fc
        .tuple(
          fc.base64String({ maxLength: 80 }),
          fc.base64String({ maxLength: 80 }),
          fc.base64String({ maxLength: 80 }),
        )
        .map((p) => `Bearer ${p.join('.')}`),
      fc
        .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1, maxLength: 512 })
        .map((v) => `Bearer ${v}`),
    );
    await fc.assert(
      fc.asyncProperty(
        header,
        fc.constantFrom('GET /api/articles', 'POST /api/tags', 'GET /api/upload/files'),
        async (value, route) => {
          const [method, path] = route.split(' ');
          let res: Awaited<ReturnType<typeof t.request>>;
          try {
            res = await t.request(method, path, method === 'POST' ? { data: { name: 'fuzz' } } : undefined, {
              authorization: value,
            });
          } catch {
            return; // a value fetch itself refuses to send (control characters) never reaches the server
          }
          expectSane(res);
          // an empty header is no credential: the Public role (which may read articles); anything else here is invalid
          if (value.trim() !== '') expect(res.status).toBe(401);
        },
      ),
      { seed: SEED + 3, numRuns: RUNS },
    );
  });

  it('leaves exactly one row per successful create, and the process alive', async () => {
    expect(await countArticles()).toBe(initialArticles + stats.creates);
    const health = await t.request('GET', '/_health');
    expect(health.status).toBe(200);
    const target = await t.request('GET', `/api/articles/${ids.article}`);
    expect(target.status).toBe(200);
  });
});

describe('checkScalar, for any attribute and any input', () => {
  const attribute: fc.Arbitrary<ScalarAttribute> = fc.record(
    {
      type: fc.constantFrom(...SCALAR_TYPES),
      required: fc.boolean(),
      unique: fc.boolean(),
      min: fc.oneof(fc.integer(), fc.double(), fc.constantFrom('10', '-5', '1.5', 'abc', '99999999999999999999')),
      max: fc.oneof(fc.integer(), fc.double(), fc.constantFrom('10', '-5', '1.5', 'abc', '99999999999999999999')),
      minLength: fc.nat(50),
      maxLength: fc.nat(50),
      // a schema's regex is checked to compile at load time
      regex: fc.constantFrom('^[a-z]+$', '.*', '^\\d{3}$', '', '[\\s\\S]{2,}'),
      enum: fc.array(fc.string(), { maxLength: 4 }),
    },
    { requiredKeys: ['type'] },
  );

  const input = fc.oneof(
    fc.anything({
      maxDepth: 3,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    }),
    fc.string({ unit: 'binary' }),
    fc.double(),
    fc.bigInt(),
    fc.date(),
    nulString,
    fc.constantFrom(
      'NaN',
      'Infinity',
      '-0',
      '1e400',
      '0x10',
      '9'.repeat(400),
      '2024-02-29',
      '2023-02-29',
      '23:59:60',
      '0000-01-01T00:00:00Z',
    ),
    fc.integer({ min: 150, max: 400 }).map((depth) => {
      let v: unknown = 'leaf';
      for (let i = 0; i < depth; i++) v = [v];
      return v;
    }),
  );

  const MODE = fc.constantFrom<CheckMode | undefined>(undefined, 'draft', 'published');

  it('never throws, and a refusal is an issue at the given path', () => {
    fc.assert(
      fc.property(
        attribute,
        input,
        fc.array(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 3 }),
        MODE,
        (attr, value, path, mode) => {
          const result = checkScalar(attr, value, path, mode);
          if (result.ok) return;
          expect(result.issue.path).toEqual(path);
          expect(result.issue.name).toBe('ValidationError');
          // messages lead with the path as Strapi's yup formatter writes it (indices in brackets)
          expect(result.issue.message.startsWith(`${fieldLabel(path)} `)).toBe(true);
        },
      ),
      { seed: SEED + 3, numRuns: 3_000 },
    );
  });

  it('accepts only values PostgreSQL can store as jsonb, and its refusals serialise', () => {
    fc.assert(
      fc.property(attribute, fc.jsonValue({ maxDepth: 3 }), (attr, value) => {
        const result = checkScalar(attr, value, ['x']);
        // either way the outcome goes into an HTTP response or a jsonb column: it must serialise
        const text = JSON.stringify(result.ok ? result.value : result.issue);
        expect(typeof text).toBe('string');
        // jsonb refuses \u0000 (and JSON.stringify writes a NUL that way)
        if (result.ok) expect(text).not.toContain('\\u0000');
      }),
      { seed: SEED + 4, numRuns: 3_000 },
    );
  });
});
