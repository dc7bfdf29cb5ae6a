import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
}

/** A request through node:http, which sends the Origin header it is given (fetch may not). */
function send(
  app: TestApp,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = text === '' ? null : JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const FRONT = 'https://front.example';
const OTHER = 'https://other.example';
const preflight = (origin: string, method = 'POST') => ({
  origin,
  'access-control-request-method': method,
  'access-control-request-headers': 'authorization,content-type',
});
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-expose-headers',
];
const reflected = (origin: string) => ({
  'access-control-allow-origin': origin,
  'access-control-allow-credentials': 'true',
});
const corsOf = (res: Answer): Record<string, unknown> =>
  Object.fromEntries(CORS_HEADERS.filter((h) => res.headers[h] !== undefined).map((h) => [h, res.headers[h]]));

/** blog: Strapi's defaults; listed: an origin list in config/middlewares.ts; string: server.cors. */
let blog: TestApp;
let listed: TestApp;
let string: TestApp;

beforeAll(async () => {
  const appDir = await writeApp({
    files: {
      // Strapi's own list, with entries Vellum has built in and one it does not load
      'config/middlewares.ts': `export default ({ env }) => [
        'strapi::logger',
        'strapi::errors',
        { name: 'strapi::cors', config: {
          origin: ['${FRONT}', env('EXTRA_ORIGIN', 'https://extra.example')],
          methods: ['GET', 'POST'], headers: 'Authorization', credentials: false, maxAge: 600, expose: ['X-Request-Id'],
          keepHeaderOnError: true,
        } },
        { name: 'global::custom', config: { anything: true } },
        { resolve: './src/middlewares/mine' },
        'strapi::body',
      ];`,
    },
  });
  [blog, listed, string] = await Promise.all([
    startApp(),
    startApp({ appDir }),
    startApp({ appDir, config: { middlewares: ['strapi::cors'], server: { cors: { origin: `${OTHER}, ${FRONT}` } } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([blog?.close(), listed?.close(), string?.close()]);
});

describe("CORS (Strapi's strapi::cors)", () => {
  it('is on by default for the content API: a cross-origin GET gets its origin back, with credentials', async () => {
    const res = await send(blog, 'GET', '/api/articles', { origin: FRONT, authorization: `Bearer ${blog.token}` });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(corsOf(res)).toEqual(reflected(FRONT));
    expect(res.headers.vary).toMatch(/\bOrigin\b/);
    // not a cross-origin request: '*' and no credentials, never an empty origin
    const plain = await send(blog, 'GET', '/api/articles', { authorization: `Bearer ${blog.token}` });
    expect(corsOf(plain)).toEqual({ 'access-control-allow-origin': '*' });
  });

  it("answers a preflight 204 with Strapi's defaults, also for a route that has only other methods", async () => {
    const routes = [
      ['/api/articles', 'POST'],
      ['/api/auth/local', 'POST'],
      ['/api/users/me', 'DELETE'],
    ];
    for (const [path, method] of routes) {
      const res = await send(blog, 'OPTIONS', path, preflight(FRONT, method));
      expect(res.status, path).toBe(204);
      expect(res.body, path).toBeNull();
      expect(corsOf(res), path).toEqual({
        'access-control-allow-origin': FRONT,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS',
        'access-control-allow-headers': 'Content-Type,Authorization,Origin,Accept',
        'access-control-max-age': '31536000',
      });
    }
  });

  it('keeps the CORS headers on error answers, so the browser can read the envelope', async () => {
    const missing = await send(blog, 'GET', '/api/users/me', { origin: FRONT });
    const unknown = await send(blog, 'GET', '/api/nothing-here', { origin: FRONT });
    const badJson = await send(
      blog,
      'POST',
      '/api/articles',
      {
        origin: FRONT,
        authorization: `Bearer ${blog.token}`,
        'content-type': 'application/json',
      },
      '{"data": ',
    );
    const badUrl = await send(blog, 'GET', '/api/articles?x=%00', { origin: FRONT });
    for (const [res, status, name] of [
      [missing, 401, 'UnauthorizedError'],
      [unknown, 404, 'NotFoundError'],
      [badJson, 400, 'ValidationError'],
      [badUrl, 400, 'ValidationError'],
    ] as const) {
      expect(res.status, name).toBe(status);
      expect(res.body.error.name, name).toBe(name);
      expect(corsOf(res), name).toEqual(reflected(FRONT));
    }
  });

  it('with an origin list in config/middlewares, names only a listed origin back, with its options', async () => {
    const allowed = await send(listed, 'GET', '/_health', { origin: FRONT });
    expect(allowed.status).toBe(200);
    expect(corsOf(allowed)).toEqual({
      'access-control-allow-origin': FRONT,
      'access-control-expose-headers': 'X-Request-Id',
    });
    const fromEnv = await send(listed, 'GET', '/_health', { origin: 'https://extra.example' });
    expect(fromEnv.headers['access-control-allow-origin']).toBe('https://extra.example');

    const refused = await send(listed, 'GET', '/_health', { origin: OTHER });
    expect(refused.status).toBe(200);
    expect(corsOf(refused)).toEqual({});

    const ok = await send(listed, 'OPTIONS', '/api/auth/local', preflight(FRONT));
    expect(ok.status).toBe(204);
    expect(corsOf(ok)).toEqual({
      'access-control-allow-origin': FRONT,
      'access-control-allow-methods': 'GET,POST',
      'access-control-allow-headers': 'Authorization',
      'access-control-max-age': '600',
    });
    // an origin not listed gets no CORS header, so the browser refuses to send the request
    const no = await send(listed, 'OPTIONS', '/api/auth/local', preflight(OTHER));
    expect(corsOf(no)).toEqual({});
    expect(no.status).not.toBe(204);
  });

  it('reads server.cors too, a comma-separated origin string included', async () => {
    for (const origin of [FRONT, OTHER]) {
      const res = await send(string, 'GET', '/_health', { origin });
      expect(corsOf(res), origin).toEqual(reflected(origin));
    }
    expect(corsOf(await send(string, 'GET', '/_health', { origin: 'https://extra.example' }))).toEqual({});
  });

  it('takes an origin function of the request, as Strapi does', async () => {
    const origin = async (ctx: { get(name: string): string }) => (ctx.get('x-tenant') === 'front' ? [FRONT] : '');
    const app = await startApp({ config: { server: { cors: { origin, credentials: false } } } });
    try {
      const ok = await send(app, 'GET', '/_health', { origin: FRONT, 'x-tenant': 'front' });
      expect(corsOf(ok)).toEqual({ 'access-control-allow-origin': FRONT });
      expect(corsOf(await send(app, 'GET', '/_health', { origin: FRONT, 'x-tenant': 'other' }))).toEqual({});
    } finally {
      await app.close();
    }
  });

  it('is off with enabled: false (either place) or a middlewares list without strapi::cors', async () => {
    const setups = [
      { config: { server: { cors: { enabled: false } } } },
      { config: { middlewares: [{ name: 'strapi::cors', config: { enabled: false } }] } },
      { config: { middlewares: ['strapi::logger', 'strapi::errors', 'strapi::body'] } },
    ];
    const apps = await Promise.all(setups.map((options) => startApp(options)));
    try {
      for (const [i, app] of apps.entries()) {
        const get = await send(app, 'GET', '/_health', { origin: FRONT });
        expect(get.status, String(i)).toBe(200);
        expect(corsOf(get), String(i)).toEqual({});
        const pre = await send(app, 'OPTIONS', '/api/auth/local', preflight(FRONT));
        expect(pre.status, String(i)).not.toBe(204);
        expect(corsOf(pre), String(i)).toEqual({});
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it('refuses to start on a CORS option it does not know or cannot use, naming it', async () => {
    const cases: Array<[NonNullable<Parameters<typeof startApp>[0]>['config'], RegExp]> = [
      [{ server: { cors: { origins: [FRONT] } } }, /^config\/server \(.*\): cors: unrecognized key: "origins"/],
      [{ server: { cors: { origin: 42 } } }, /^config\/server \(.*\): cors\.origin: expected '\*', an origin/],
      [{ server: { cors: { maxAge: '1 year' } } }, /^config\/server \(.*\): cors\.maxAge: expected number/],
      [
        { middlewares: [{ name: 'strapi::cors', config: { credentials: 'yes' } }] },
        /^config\/middlewares: \[0\]\.config\.credentials: expected boolean, got "yes"/,
      ],
      [{ middlewares: [42] }, /^config\/middlewares\[0\] must be/],
    ];
    const results = await Promise.allSettled(cases.map(([config]) => startApp({ config })));
    await Promise.all(results.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
    for (const [i, result] of results.entries()) {
      expect(result.status).toBe('rejected');
      const err = (result as PromiseRejectedResult).reason as Error;
      expect(err.name).toBe('ConfigurationError');
      expect(err.message).toMatch(cases[i][1]);
    }
  });
});
