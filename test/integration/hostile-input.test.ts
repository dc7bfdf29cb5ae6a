/**
 * Hostile input through real HTTP against the blog example: every bad request gets a 4xx in
 * Strapi's envelope `{data:null, error:{status,name,message,details}}`, writes nothing, leaks
 * nothing of the internals (SQL, stack frames, paths), and the process keeps answering.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';

let t: TestApp;
/** every response body this file received, checked for leaks at the end */
const seen: Array<{ request: string; text: string }> = [];
const ids = { article: '', author: '', tag: '' };

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<TestResponse> {
  const res = await t.request(method, path, body, headers);
  seen.push({ request: `${method} ${path.slice(0, 120)}`, text: res.text });
  return res;
}

/** Every row of every table, ordered: equal snapshots mean nothing was written. */
async function snapshot(): Promise<string> {
  const { rows } = await t.sql.raw(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = ` +
      `'BASE TABLE' ORDER BY 1`,
  );
  const out: Record<string, unknown> = {};
  for (const { table_name: name } of rows as Array<{ table_name: string }>) {
    // the test's own API token records when it was last used (at most once a minute): not a write of the request's
    if (name === 'strapi_api_tokens') continue;
    // the response cache's generations: a refused write may bump them (more invalidation is safe), no content
    if (name === 'vellum_generations') continue;
    // ordered by the whole row: a first column that repeats (a counts table's name) has no one order
    out[name] = (await t.sql.raw('SELECT * FROM ?? r ORDER BY r::text', [name])).rows;
  }
  return JSON.stringify(out);
}

/** An error name, or a matcher for one. */
type Name = string | ReturnType<typeof expect.stringMatching>;

/** The error envelope, with exactly these four error fields and an object as details. */
function expectEnvelope(res: TestResponse, status: number, name: Name, message?: string | RegExp): void {
  expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    data: null,
    error: { status, name, message: expect.any(String), details: expect.any(Object) },
  });
  expect(Array.isArray(res.body.error.details)).toBe(false);
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else if (message) expect(res.body.error.message).toMatch(message);
}

/** Send a request that must be refused with this error, and prove that no row changed. */
async function refused(
  method: string,
  path: string,
  body: unknown,
  status: number,
  name: Name,
  message?: string | RegExp,
): Promise<TestResponse> {
  const before = await snapshot();
  const res = await call(method, path, body);
  expectEnvelope(res, status, name, message);
  expect(await snapshot()).toBe(before);
  return res;
}

/** The request paths a `data` payload can be written through. */
const writes = (): Array<[string, string]> => [
  ['POST', '/api/articles'],
  ['PUT', `/api/articles/${ids.article}`],
];

/** Nested arrays `depth` levels deep, as JSON text (building it as an object would need recursion to print). */
const deepArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const deepObjects = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A raw HTTP exchange, for requests fetch refuses to send. */
function rawHttp(request: string): Promise<string> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(request, 'latin1'));
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    });
  });
}

beforeAll(async () => {
  t = await startApp();
  const author = await call('POST', '/api/authors', { data: { name: 'Ada' } });
  const tag = await call('POST', '/api/tags', { data: { name: 'hostile' } });
  ids.author = author.body.data.documentId;
  ids.tag = tag.body.data.documentId;
  const article = await call('POST', '/api/articles', {
    data: { title: 'Existing', author: ids.author, tags: [ids.tag], seo: { metaTitle: 'Seo' }, meta: { a: 1 } },
  });
  expect(article.status).toBe(201);
  ids.article = article.body.data.documentId;
});

afterAll(async () => {
  await t?.close();
});

describe('malformed JSON', () => {
  const texts = [
    '{"data": {"title": "x"',
    '{data: {}}',
    "{'data':{}}",
    '{"data":{}} trailing',
    '{"data":{"title":"x",}}',
    '\u0000',
    '{"data":{"title":"\\x"}}',
  ];
  for (const [method, path] of [
    ['POST', '/api/articles'],
    ['PUT', '/api/articles/:id'],
  ]) {
    it.each(texts)(`${method} ${path} with %j is a 400 ValidationError`, async (text) => {
      await refused(
        method,
        path.replace(':id', ids.article),
        text,
        400,
        'ValidationError',
        'Invalid JSON in request body',
      );
    });
  }
});

describe('a body without an object `data`', () => {
  const bodies = [
    '123',
    '"str"',
    'null',
    'true',
    '[]',
    '[{"data":{"title":"x"}}]',
    '{}',
    '{"data":null}',
    '{"data":"x"}',
    '{"data":1}',
    '{"data":[]}',
    '{"data":[{"title":"x"}]}',
    '{"title":"x"}',
    '',
  ];
  it.each(bodies)('%j is a 400 Missing "data" payload, on create and update', async (text) => {
    for (const [method, path] of writes()) {
      await refused(method, path, text, 400, 'ValidationError', 'Missing "data" payload in the request body');
    }
  });
});

describe('unknown and prototype keys', () => {
  const cases: Array<[string, string, string]> = [
    ['an unknown attribute', '{"data":{"title":"x","nope":1}}', 'nope'],
    ['constructor', '{"data":{"title":"x","constructor":{"prototype":{"polluted":true}}}}', 'constructor'],
    ['prototype', '{"data":{"title":"x","prototype":{"polluted":true}}}', 'prototype'],
    ['__proto__ in data', '{"data":{"__proto__":{"title":"x"}}}', '__proto__'],
    ['__proto__ next to valid attributes', '{"data":{"title":"x","__proto__":{"polluted":true}}}', '__proto__'],
    ['__proto__ at the top level', '{"__proto__":{"polluted":true},"data":{"title":"x"}}', '__proto__'],
    [
      '__proto__ inside a component',
      '{"data":{"title":"x","seo":{"metaTitle":"m","__proto__":{"polluted":true}}}}',
      '__proto__',
    ],
    ['__proto__ inside a json attribute', '{"data":{"title":"x","meta":{"__proto__":{"polluted":true}}}}', '__proto__'],
    [
      '__proto__ inside a dynamic zone item',
      '{"data":{"title":"x","blocks":[{"__component":"shared.quote","__proto__":{"polluted":true}}]}}',
      '__proto__',
    ],
    ['an unknown key inside a component', '{"data":{"title":"x","seo":{"metaTitle":"m","evil":1}}}', 'evil'],
    ['constructor inside a component', '{"data":{"title":"x","seo":{"metaTitle":"m","constructor":1}}}', 'constructor'],
  ];
  it.each(cases)('%s is a 400 Invalid key, sent as raw JSON text', async (_label, text, key) => {
    for (const [method, path] of writes()) {
      const res = await refused(method, path, text, 400, 'ValidationError', `Invalid key ${key}`);
      expect(res.body.error.details).toMatchObject({
        key,
        source: 'body',
        path: expect.stringMatching(new RegExp(`(^|\\.)${key}$`)),
      });
    }
    // the server runs in this process: a polluted prototype would show here
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });
});

describe('NUL characters', () => {
  const bodies: Array<[string, unknown]> = [
    ['a string value', { data: { title: 'a\u0000b' } }],
    ['a key', { data: { 'ti\u0000tle': 'x' } }],
    ['a key in a component', { data: { title: 'x', seo: { 'meta\u0000Title': 'm' } } }],
    ['a json attribute value', { data: { title: 'x', meta: { note: 'a\u0000' } } }],
    ['a json attribute key', { data: { title: 'x', meta: { '\u0000': 1 } } }],
    [
      'a blocks attribute',
      { data: { title: 'x', body: [{ type: 'paragraph', children: [{ type: 'text', text: '\u0000' }] }] } },
    ],
    ['a relation id', { data: { title: 'x', author: 'a\u0000' } }],
    ['a top-level key', { data: { title: 'x' }, '\u0000': 1 }],
  ];
  it.each(bodies)('in %s is a 400 ValidationError', async (_label, body) => {
    for (const [method, path] of writes()) await refused(method, path, body, 400, 'ValidationError', /NUL/);
  });

  const urls: Array<[string, string]> = [
    ['GET', '/api/articles?locale=%00'],
    ['GET', '/api/articles?locale=en%00'],
    ['GET', '/api/articles?populate=%00'],
    ['GET', '/api/articles?status=draft%00'],
    ['GET', '/api/articles?pagination[page]=1%00'],
    ['GET', '/api/articles?unknown%00=1'],
    ['GET', '/api/articles/%00'],
    ['GET', '/api/articles/abc%00def'],
    ['DELETE', '/api/articles/%00'],
  ];
  it.each(urls)('in the URL %s %s is a 400 ValidationError', async (method, url) => {
    await refused(method, url, undefined, 400, 'ValidationError', /NUL/);
  });

  it('in the query string of a write is a 400 and writes nothing', async () => {
    for (const [method, path] of writes()) {
      await refused(method, `${path}?locale=en%00`, { data: { title: 'x' } }, 400, 'ValidationError', /NUL/);
    }
  });
});

describe('lone surrogates (text PostgreSQL cannot store)', () => {
  it.each([
    ['a string value', '{"data":{"title":"a\\ud800b"}}'],
    ['a low surrogate alone', '{"data":{"title":"\\udc00"}}'],
    ['a json attribute value', '{"data":{"title":"x","meta":{"k":"\\udbff"}}}'],
    ['a json attribute key', '{"data":{"title":"x","meta":{"\\ud800":1}}}'],
  ])('in %s is a 400 ValidationError', async (_label, text) => {
    for (const [method, path] of writes()) await refused(method, path, text, 400, 'ValidationError', /Unicode/);
  });

  it('a well-formed pair is stored', async () => {
    const res = await call(
      'POST',
      '/api/articles',
      '{"data":{"title":"\\ud83d\\ude00","meta":{"\\ud83d\\ude00":"\\ud83d\\ude00"}}}',
    );
    expect(res.status).toBe(201);
    expect(res.body.data.title).toBe('😀');
    await call('DELETE', `/api/articles/${res.body.data.documentId}`);
  });
});

describe('deep nesting', () => {
  it.each([
    ['arrays as data', (d: number) => `{"data":${deepArrays(d)}}`],
    ['objects as the body', deepObjects],
    ['arrays in a json attribute', (d: number) => `{"data":{"title":"x","meta":${deepArrays(d)}}}`],
    ['objects in a json attribute', (d: number) => `{"data":{"title":"x","meta":${deepObjects(d)}}}`],
    [
      'arrays in a blocks attribute',
      (d: number) => `{"data":{"title":"x","body":[{"type":"p","children":${deepArrays(d)}}]}}`,
    ],
    ['objects in a relation', (d: number) => `{"data":{"title":"x","tags":{"connect":${deepObjects(d)}}}}`],
  ])('10,000 levels of %s is a 400 ValidationError', async (_label, make) => {
    for (const [method, path] of writes())
      await refused(method, path, make(10_000), 400, 'ValidationError', /nested more than \d+ levels/);
  });

  it('a json attribute just under the body limit stays within the json depth cap', async () => {
    // 64 levels are the body cap; the json attribute sits two levels down, so 61 must pass
    const res = await call('POST', '/api/articles', `{"data":{"title":"deep","meta":${deepArrays(61)}}}`);
    expect(res.status).toBe(201);
    await call('DELETE', `/api/articles/${res.body.data.documentId}`);
  });

  it('a query string 10,000 levels deep is refused with an envelope (the URL alone is too large)', async () => {
    const before = await snapshot();
    const res = await call('GET', `/api/articles?populate${'[author][populate]'.repeat(5_000)}=true`);
    expectEnvelope(res, 431, 'RequestHeaderFieldsTooLargeError');
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ['populate, 1,000 levels', `populate${'[author][populate]'.repeat(500)}=true`],
    ['populate, 21 levels', `populate${'[a]'.repeat(21)}=true`],
    ['an unknown parameter, 3,000 levels', `x${'[a]'.repeat(3_000)}=1`],
    ['pagination, 100 levels', `pagination${'[page]'.repeat(100)}=1`],
  ])('a query string with %s deep is a 400 ValidationError', async (_label, query) => {
    await refused('GET', `/api/articles?${query}`, undefined, 400, 'ValidationError', /too deep/);
    await refused('POST', `/api/articles?${query}`, { data: { title: 'x' } }, 400, 'ValidationError', /too deep/);
  });

  it('a dotted populate path 1,800 levels deep is a 400, not a stack overflow', async () => {
    // qs caps bracket nesting, but `a.b.c` is split by the populate parser itself
    await refused(
      'GET',
      `/api/articles?populate=${'author.articles.'.repeat(900)}author`,
      undefined,
      400,
      'ValidationError',
    );
  });
});

describe('huge values', () => {
  it('a string over 1,000,000 characters is a 400 that does not echo the value', async () => {
    for (const [method, path] of writes()) {
      const res = await refused(
        method,
        path,
        { data: { title: 'x', summary: 'x'.repeat(1_000_001) } },
        400,
        'ValidationError',
        'summary must be at most 1000000 characters',
      );
      expect(res.text.length).toBeLessThan(2_000);
    }
  });

  it('a body over the JSON limit: 413 PayloadTooLargeError; rest is read, so the connection stays usable', async () => {
    for (const [method, path] of writes()) {
      const body = { data: { title: 'x', summary: 'x'.repeat(3 * 1024 * 1024) } };
      const res = await refused(method, path, body, 413, 'PayloadTooLargeError');
      // drained up to server.body.drainLimit (unread-body.test.ts: past it, the connection is closed)
      expect(res.headers.get('connection')).toBe('keep-alive');
    }
    expect((await call('GET', '/_health')).status).toBe(200);
  });

  it('an error on a fully read request keeps the connection alive', async () => {
    const res = await call('GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('connection')).not.toBe('close');
  });

  it('a body over the JSON limit without a content-length (chunked) is a 413 too', async () => {
    const before = await snapshot();
    const chunk = new TextEncoder().encode(`{"data":{"title":"x","summary":"${'x'.repeat(1024 * 1024)}`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('"}}'));
          controller.close();
        }
      },
    });
    const res = await fetch(`${t.url}/api/articles`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.token}` },
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    seen.push({ request: 'POST /api/articles (chunked)', text });
    expectEnvelope(
      { status: res.status, headers: res.headers, body: JSON.parse(text), text },
      413,
      'PayloadTooLargeError',
    );
    expect(await snapshot()).toBe(before);
    // the unread rest of that body must not be taken for the next request on a kept-alive connection
    const next = await call('GET', '/_health');
    expect(next.status).toBe(200);
  });

  it.each([
    ['10,000 random characters', () => randomBytes(5_000).toString('hex')],
    ['10,000 repeated characters', () => 'x'.repeat(10_000)],
    ['3,000 multi-byte characters', () => '€'.repeat(3_000)],
  ])('a unique attribute with %s is a 400 naming it, whether or not the value compresses', async (_label, make) => {
    for (const [method, path] of [
      ['POST', '/api/tags'],
      ['PUT', `/api/tags/${ids.tag}`],
    ]) {
      const res = await refused(
        method,
        path,
        { data: { name: make() } },
        400,
        'ValidationError',
        'name must be at most 2048 bytes (UTF-8) to be unique',
      );
      expect(res.body.error.details.errors[0].path).toEqual(['name']);
    }
  });

  it('a long but indexable unique value is stored', async () => {
    const res = await call('POST', '/api/tags', { data: { name: 'y'.repeat(1_000) } });
    expect(res.status).toBe(201);
    await call('DELETE', `/api/tags/${res.body.data.documentId}`);
  });
});

describe('numbers that are not integers', () => {
  const views: Array<[string, string]> = [
    ['1e308', '1e308'],
    ['1e400 (Infinity once parsed)', '1e400'],
    ['-1e400', '-1e400'],
    ['2^31', '2147483648'],
    ['a 30-digit number', '123456789012345678901234567890'],
    ['below min', '-1'],
    ['a fraction', '1.5'],
    ['"NaN"', '"NaN"'],
    ['"Infinity"', '"Infinity"'],
    ['"-Infinity"', '"-Infinity"'],
    ['"1e400"', '"1e400"'],
    ['"0x10"', '"0x10"'],
    ['""', '""'],
    ['" 1 "', '" 1 "'],
    ['"1,000"', '"1,000"'],
    ['true', 'true'],
    ['[]', '[]'],
    ['{}', '{}'],
    ['[1]', '[1]'],
  ];
  it.each(views)('views = %s is a 400', async (_label, raw) => {
    for (const [method, path] of writes()) {
      const res = await refused(method, path, `{"data":{"title":"x","views":${raw}}}`, 400, 'ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual(['views']);
    }
  });

  it.each([
    ['rating', '"NaN"'],
    ['rating', '1e400'],
    ['rating', '"Infinity"'],
    ['price', '"-Infinity"'],
    ['price', '[]'],
    ['isFeatured', '"yes"'],
    ['isFeatured', '2'],
    ['isFeatured', '{}'],
    ['publishDate', '"2024-02-30"'],
    ['publishDate', '1e400'],
    ['readingTime', '"25:00"'],
    ['category', '"other"'],
    ['contactEmail', '"not an email"'],
    ['slug', '"has spaces"'],
  ])('%s = %s is a 400', async (attr, raw) => {
    for (const [method, path] of writes()) {
      const res = await refused(method, path, `{"data":{"title":"x","${attr}":${raw}}}`, 400, 'ValidationError');
      expect(res.body.error.details.errors[0].path).toEqual([attr]);
    }
  });

  it('negative zero is accepted and stored as 0', async () => {
    const res = await call('POST', '/api/articles', '{"data":{"title":"minus zero","views":-0,"rating":-0}}');
    expect(res.status).toBe(201);
    expect(res.body.data.views).toBe(0);
    const row = await t.sql('articles').where('document_id', res.body.data.documentId).first('data');
    expect(row.data.views).toBe(0);
    await call('DELETE', `/api/articles/${res.body.data.documentId}`);
  });
});

describe('arrays where objects are expected and vice versa', () => {
  const cases: Array<[string, unknown]> = [
    ['title as an object', { title: {} }],
    ['title as an array', { title: ['x'] }],
    ['a component as an array', { seo: [{ metaTitle: 'x' }] }],
    ['a component as a string', { seo: 'x' }],
    ['a repeatable component as an object', { seo: { metaTitle: 'x', keywords: { value: 'k' } } }],
    ['a dynamic zone as an object', { blocks: { __component: 'shared.quote' } }],
    ['a dynamic zone item as an array', { blocks: [['shared.quote']] }],
    ['a dynamic zone item with an unknown component', { blocks: [{ __component: 'shared.nope' }] }],
    ['blocks as an object', { body: { type: 'paragraph' } }],
    ['blocks with children as an object', { body: [{ type: 'paragraph', children: { type: 'text' } }] }],
    ['a to-one relation as a number', { author: 12345 }],
    ['a to-one relation as a nested array', { author: [[]] }],
    ['a relation with connect as an object of nothing', { tags: { connect: {} } }],
    ['a relation with an unknown key', { tags: { foo: 1 } }],
    ['a relation with set and connect', { tags: { set: [], connect: [] } }],
    ['a relation to a missing document', { tags: ['doesnotexist0000000000000'] }],
    ['a relation with an id that is not a documentId', { author: "1' OR '1'='1" }],
    ['a relation with a numeric id', { tags: [1, 2, 3] }],
    ['a relation with a huge id', { tags: ['a'.repeat(100_000)] }],
    [
      'a relation position anchored on nothing',
      { tags: { connect: [{ documentId: 'x', position: { before: 'y' } }] } },
    ],
    ['media as an object', { gallery: { id: 1 } }],
    ['media as a nested array', { cover: [[1]] }],
    ['media with a missing file', { cover: 999999 }],
    ['media with a negative id', { gallery: [-1] }],
  ];
  it.each(cases)('%s is a 400 ValidationError', async (_label, data) => {
    for (const [method, path] of writes())
      await refused(method, path, { data: { title: 'x', ...(data as object) } }, 400, 'ValidationError');
  });
});

describe('the URL', () => {
  const longId = 'a'.repeat(10_000);
  it.each([
    ['GET', '/api/articles/%E0%A4%A'],
    ['PUT', '/api/articles/%E0%A4%A'],
    ['DELETE', '/api/articles/%E0%A4%A'],
    ['GET', '/api/articles/%'],
    ['GET', '/api/articles/%ZZ'],
    ['GET', '/api/articles/%ED%A0%80'],
    ['GET', '/api/articles/<10,000 characters>'],
    ['PUT', '/api/articles/<10,000 characters>'],
    ['DELETE', '/api/articles/<10,000 characters>'],
    ['GET', `/api/articles/${encodeURIComponent("' OR 1=1 --")}`],
  ])('%s %s (a documentId that cannot exist) is a 404 NotFoundError', async (method, shown) => {
    const path = shown.replace('<10,000 characters>', longId);
    await refused(
      method,
      path,
      method === 'PUT' ? { data: { title: 'x' } } : undefined,
      404,
      'NotFoundError',
      'Not Found',
    );
  });

  it.each([
    '/api/articles?populate=%ZZ',
    '/api/articles?populate=%E0%A4%A',
    '/api/articles?populate[%ZZ]=true',
    '/api/articles?pagination[page]=%ZZ',
    '/api/articles?status=%ZZ',
    '/api/articles?populate=nope',
    '/api/articles?pagination[page]=99999999999999999999',
    '/api/articles?pagination[pageSize]=1e3',
    '/api/articles?pagination[nope]=1',
    '/api/articles?pagination=1',
    '/api/articles?populate[0][0]=author',
    '/api/articles?status[]=draft',
    '/api/articles?locale[x]=en',
    '/api/articles?filters[nope][$eq]=x',
    '/api/articles?filters[title][$eq]=%00',
    '/api/articles?filters[views][$gt]=1e999',
    '/api/articles?sort=title:sideways',
  ])('GET %s is a 400', async (path) => {
    await refused('GET', path, undefined, 400, expect.stringMatching(/^(Validation|Pagination)Error$/));
  });

  it('a query string with too many parameters is a 400', async () => {
    const query = Array.from({ length: 1_100 }, (_, i) => `p${i}=1`).join('&');
    await refused('GET', `/api/articles?${query}`, undefined, 400, 'ValidationError');
  });

  it('a documentId too long for any request line is refused with an envelope', async () => {
    const res = await call('GET', `/api/articles/${'a'.repeat(100_000)}`);
    expectEnvelope(res, 431, 'RequestHeaderFieldsTooLargeError');
  });

  it('a malformed request line gets an envelope and the connection is closed', async () => {
    const answer = await rawHttp('GET /api/art\u0000icles HTTP/1.1\r\nHost: x\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    seen.push({ request: 'raw malformed request line', text: body });
    expect(JSON.parse(body)).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Bad Request', details: {} },
    });
  });
});

describe('routes and methods', () => {
  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/nope'],
    ['GET', '/api'],
    ['GET', '/api/articles/x/y'],
    ['GET', '/api/%ZZ'],
    ['DELETE', '/api/nope/1'],
    ['GET', '/api/article'],
    ['GET', '/api/globals'],
  ])('%s %s is a 404 NotFoundError', async (method, path) => {
    await refused(method, path, method === 'POST' ? { data: {} } : undefined, 404, 'NotFoundError', 'Not Found');
  });

  it.each([
    ['PATCH', '/api/articles'],
    ['DELETE', '/api/articles'],
    ['PUT', '/api/articles'],
    ['POST', '/api/articles/:id'],
    ['PATCH', '/api/articles/:id'],
    ['POST', '/api/global'],
    ['PATCH', '/api/global'],
    ['POST', '/_health'],
  ])('%s %s is a 405 MethodNotAllowedError', async (method, path) => {
    const res = await refused(
      method,
      path.replace(':id', ids.article),
      { data: { title: 'x' } },
      405,
      'MethodNotAllowedError',
    );
    // HTTP requires a 405 to say what is allowed
    expect(res.headers.get('allow')).toMatch(/\bGET\b/);
    expect(res.headers.get('allow')).not.toMatch(new RegExp(`\\b${method}\\b`));
  });
});

describe('credentials', () => {
  const jwtLike = (payload: string) =>
    `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${payload}.${'A'.repeat(43)}`;
  it.each([
    ['a scheme other than Bearer', 'Basic dXNlcjpwYXNz'],
    ['Bearer and nothing', 'Bearer '],
    ['two values', 'Bearer a b'],
    ['a random hex key', `Bearer ${randomBytes(128).toString('hex')}`],
    ['a huge key', `Bearer ${'f'.repeat(4000)}`],
    ['non-hex garbage', 'Bearer zzz-not-a-token'],
    ['a JWT-looking value', 'Bearer a.b.c'],
    [
      'a JWT with an unsigned alg',
      `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"id":1}').toString('base64url')}.`,
    ],
    ['a forged JWT', `Bearer ${jwtLike(Buffer.from('{"id":1,"exp":9999999999}').toString('base64url'))}`],
    ['a JWT whose id is not a number', `Bearer ${jwtLike(Buffer.from('{"id":{"$gt":0}}').toString('base64url'))}`],
    ['a NUL character', 'Bearer abc\u0000def'],
  ])(
    '%s is a 401 UnauthorizedError, even on a route the Public role may use, and writes nothing',
    async (_label, header) => {
      const before = await snapshot();
      for (const [method, path, body] of [
        ['GET', '/api/articles', undefined],
        ['POST', '/api/tags', { data: { name: 'nope' } }],
      ] as const) {
        let res: TestResponse;
        try {
          res = await call(method, path, body, { authorization: header });
        } catch {
          continue; // fetch itself refuses some header values (NUL): nothing reached the server
        }
        expectEnvelope(res, 401, 'UnauthorizedError', 'Missing or invalid credentials');
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it('no credentials on a route the Public role lacks is a 401; on one it has, a 200', async () => {
    const before = await snapshot();
    expectEnvelope(
      await call('POST', '/api/tags', { data: { name: 'anonymous' } }, { authorization: '' }),
      401,
      'UnauthorizedError',
    );
    expect(await snapshot()).toBe(before);
    const res = await call('GET', '/api/tags', undefined, { authorization: '' });
    expect(res.status).toBe(200);
  });
});

describe('after all of it', () => {
  it('the existing documents are intact', async () => {
    const res = await call('GET', `/api/articles/${ids.article}?populate=*`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Existing',
      author: { documentId: ids.author },
      seo: { metaTitle: 'Seo' },
      meta: { a: 1 },
    });
    expect(res.body.data.tags.map((tag: { documentId: string }) => tag.documentId)).toEqual([ids.tag]);
  });

  it('the process still answers /_health with 200', async () => {
    const res = await call('GET', '/_health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('no response leaked SQL, stack frames or file paths', () => {
    expect(seen.length).toBeGreaterThan(200);
    const leaks = seen.filter(({ text }) =>
      new RegExp(
        '\\bselect\\s|\\binsert\\s|\\bupdate\\s+"|node_modules|^\\s*at\\s|' +
          '\\bat\\s+\\S*\\s*\\(?(?:file:\\/\\/|node:|\\/)\\S*:\\d+:\\d+',
        'im',
      ).test(text),
    );
    expect(leaks.map((l) => `${l.request}: ${l.text.slice(0, 200)}`)).toEqual([]);
  });
});
