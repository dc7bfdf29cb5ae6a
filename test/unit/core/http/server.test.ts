import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type HttpServer } from '../../../../core/http/server.ts';

const UNAVAILABLE = 'The database is unavailable; try again shortly';
const body = { jsonLimit: '1mb', formLimit: '1mb', textLimit: '1mb' };

describe('the HTTP error envelope', () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close(100);
  });

  it('answers 503 ServiceUnavailableError for a database that cannot be reached, 500 for other failures', async () => {
    server = createHttpServer({ log: pino({ level: 'silent' }), body });
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    server.route({
      method: 'GET',
      path: '/down',
      handler: () => {
        throw refused;
      },
    });
    server.route({
      method: 'GET',
      path: '/bug',
      handler: () => {
        throw new Error('a bug');
      },
    });
    const { port } = await server.listen(0, '127.0.0.1');

    const down = await fetch(`http://127.0.0.1:${port}/down`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: UNAVAILABLE, details: {} },
    });
    const bug = await fetch(`http://127.0.0.1:${port}/bug`);
    expect(bug.status).toBe(500);
    expect((await bug.json()).error.name).toBe('InternalServerError');
  });
});

describe('middleware composition', () => {
  let server: HttpServer | undefined;
  afterEach(async () => {
    await server?.close(100);
    server = undefined;
  });

  it('refuses a second next() from a middleware added with use(): a 500, and the rest ran once', async () => {
    server = createHttpServer({ log: pino({ level: 'silent' }), body });
    let secondCall: unknown;
    let handled = 0;
    server.use(async (_ctx, next) => {
      await next();
      try {
        await next();
      } catch (err) {
        secondCall = err;
        throw err;
      }
    });
    server.route({
      method: 'GET',
      path: '/twice',
      handler: (ctx) => {
        handled++;
        ctx.body = { ok: true };
      },
    });
    const { port } = await server.listen(0, '127.0.0.1');

    const res = await fetch(`http://127.0.0.1:${port}/twice`);
    expect(res.status).toBe(500);
    expect((await res.json()).error.name).toBe('InternalServerError');
    expect((secondCall as Error).message).toBe('next() called multiple times');
    expect(handled).toBe(1);
  });

  it('refuses a second next() from a route middleware: the handler runs once and the request is a 500', async () => {
    server = createHttpServer({ log: pino({ level: 'silent' }), body });
    let secondCall: unknown;
    let handled = 0;
    const seen: string[] = [];
    server.useRoute(async (_ctx, route, next) => {
      seen.push(route.path);
      await next();
      await next().catch((err: unknown) => {
        secondCall = err;
        throw err;
      });
    });
    server.route({
      method: 'GET',
      path: '/guarded',
      handler: (ctx) => {
        handled++;
        ctx.body = { ok: true };
      },
    });
    const { port } = await server.listen(0, '127.0.0.1');

    const res = await fetch(`http://127.0.0.1:${port}/guarded`);
    expect(res.status).toBe(500);
    expect((secondCall as Error).message).toBe('next() called multiple times');
    expect([handled, seen]).toEqual([1, ['/guarded']]);
  });

  it('runs use() middleware in order around routing, and route middleware in order around the handler', async () => {
    server = createHttpServer({ log: pino({ level: 'silent' }), body });
    const order: string[] = [];
    server.use(async (_ctx, next) => {
      order.push('use 1');
      await next();
      order.push('use 1 after');
    });
    server.use(async (_ctx, next) => {
      order.push('use 2');
      await next();
    });
    server.useRoute(async (_ctx, _route, next) => {
      order.push('route 1');
      await next();
      order.push('route 1 after');
    });
    server.useRoute(async (_ctx, _route, next) => {
      order.push('route 2');
      await next();
    });
    const handler = (ctx: { body: unknown }): void => {
      order.push('handler');
      ctx.body = { ok: true };
    };
    server.route({ method: 'GET', path: '/ordered', handler });
    const { port } = await server.listen(0, '127.0.0.1');

    expect((await fetch(`http://127.0.0.1:${port}/ordered`)).status).toBe(200);
    expect(order).toEqual(['use 1', 'use 2', 'route 1', 'route 2', 'handler', 'route 1 after', 'use 1 after']);
  });
});
