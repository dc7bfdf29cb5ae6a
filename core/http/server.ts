import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import Router from '@koa/router';
import compose from 'koa-compose';
import serve from 'koa-static';
import { HttpMethodEnum, koaBody } from 'koa-body';
import qs from 'qs';
import type { Logger } from 'pino';
import {
  type AppError,
  configurationError,
  headersTooLarge,
  internalError,
  isAppError,
  methodNotAllowed,
  notFound,
  payloadTooLarge,
  requestTimeout,
  validationError,
} from '../errors.ts';
import { explainForbiddenKey, guardBody } from './body-guard.ts';
import { byteSize, drainBody } from './drain.ts';
import { bodyAsBytes } from './body-bytes.ts';
import { trustProxy, type ProxySettings } from './proxy.ts';
import type { RequestAuth } from '../auth/types.ts';
import { databaseUnavailable } from '../documents/db-errors.ts';
import type { Cancellation } from '../../database/cancellation.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Per-request state every handler can rely on. */
export interface RequestState {
  requestId: string;
  log: Logger;
  /** the query string parsed with qs bracket notation */
  query: Record<string, unknown>;
  /** who is asking and what they may do: set on every route (by the auth plugin, or an open API's) */
  auth?: RequestAuth;
  /** the matched route's `bodyLimit`: how much of an unread body is drained before answering */
  bodyLimit?: number;
  [key: string]: unknown;
}

export type RequestContext = Koa.ParameterizedContext<RequestState> & { params: Record<string, string> };

export interface Route {
  method: HttpMethod;
  path: string;
  handler: (ctx: RequestContext) => Promise<void> | void;
  /**
   * what the route is, for plugins that guard routes (auth reads `action`); `cache`: its answers may
   * be kept by the response cache, when its handler names what they read (core/cache)
   */
  config?: { action?: string; auth?: false; cache?: boolean; [key: string]: unknown };
  /**
   * Bytes of body the handler reads itself (an upload), when more than the body parsers' limits:
   * a body left unread by an early answer (403, say) is drained up to this before answering.
   */
  bodyLimit?: number;
}

export type RouteMiddleware = (ctx: RequestContext, route: Route, next: () => Promise<void>) => Promise<void>;

export interface HttpServerOptions {
  log: Logger;
  /**
   * koa-body's limits, and `drainLimit`: how much of a body an answer sent before reading it (401, 403,
   * 404, 413…) reads and discards first (default: the largest of the three limits)
   */
  body: { jsonLimit: string; formLimit: string; textLimit: string; drainLimit?: string | number };
  /** the reverse proxies trusted for the client's address (rate limits key on it); none when absent */
  proxy?: ProxySettings;
  /** a folder served at the root for what no route answers (the app's `public/`, as Strapi's `strapi::public`) */
  publicDir?: string;
  /** where a request's AbortSignal is made current, so its statements are cancelled when its client goes away */
  cancellation?: Cancellation;
  /** Strapi's `strapi::cors`: runs inside the error envelope, before anything that can refuse a request */
  cors?: Koa.Middleware<RequestState>;
}

export interface HttpServer {
  /** Add a route; routes are mounted when the server starts listening. */
  route(route: Route): void;
  routes(): readonly Route[];
  /** Add a Koa middleware that runs before routing (after errors, logging and body parsing). */
  use(middleware: Koa.Middleware<RequestState>): void;
  /** Add a middleware that runs around every route handler, knowing the route (auth guards routes with it). */
  useRoute(middleware: RouteMiddleware): void;
  listen(port: number, host: string): Promise<AddressInfo>;
  /** Stop accepting, let in-flight requests finish (up to timeoutMs), then drop what is left. */
  close(timeoutMs: number): Promise<void>;
  readonly koa: Koa<RequestState>;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

const QS_OPTIONS = {
  depth: 20,
  strictDepth: true,
  arrayLimit: 100,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
} as const;

/** What co-body's JSON parser (@hapi/bourne) throws for a `__proto__` key. */
const PROTO_POISONING = 'Object contains forbidden prototype property';

/** Turn anything thrown while handling a request into Strapi's error envelope. */
function toAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  const unavailable = databaseUnavailable(err);
  if (unavailable) return unavailable;
  const e = err as { status?: number; type?: string; expose?: boolean; message?: string; body?: unknown };
  if (e?.status === 413 || e?.type === 'entity.too.large') return payloadTooLarge();
  if (err instanceof SyntaxError && e.message === PROTO_POISONING && typeof e.body === 'string')
    return explainForbiddenKey(e.body);
  if (e?.type === 'entity.parse.failed' || (err instanceof SyntaxError && e.status === 400)) {
    return validationError('Invalid JSON in request body');
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return e.status === 404
      ? notFound()
      : e.status === 405
        ? methodNotAllowed()
        : validationError(e.message ?? 'Bad Request');
  }
  return databaseUnavailable(err);
}

/**
 * Refuse NUL anywhere in the URL: no route, parameter or stored value can hold one, and
 * PostgreSQL rejects it in any text it is compared with (a 500 on reads otherwise).
 * `%00` is the only way to send it: the HTTP parser refuses a raw NUL byte.
 */
function guardUrl(url: string): void {
  if (url.includes('%00')) throw validationError('The URL must not contain NUL characters');
}

/** The envelope for a request Node's HTTP parser refused, with the status Node would use. */
function clientErrorOf(err: NodeJS.ErrnoException): AppError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return headersTooLarge();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return payloadTooLarge();
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return requestTimeout();
    default:
      return validationError('Bad Request');
  }
}

/**
 * Answer a request that never reached Koa (a URL over the header size limit, a malformed
 * request line) in the envelope too, instead of Node's bare status line; then close,
 * since the rest of the stream cannot be trusted to start a request.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const appErr = clientErrorOf(err);
  const body = JSON.stringify({ data: null, error: appErr.toJSON() });
  socket.end(
    `HTTP/1.1 ${appErr.status} ${http.STATUS_CODES[appErr.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Serve `dir`'s files (GET and HEAD); a path that does not decode names no file (the 404 stays). */
function publicFiles(dir: string): (ctx: Koa.ParameterizedContext<RequestState>) => Promise<void> {
  const send = serve(dir, { index: false, hidden: false, defer: false }) as unknown as Koa.Middleware<RequestState>;
  return async (ctx) => {
    try {
      decodeURIComponent(ctx.path);
    } catch {
      return;
    }
    await send(ctx, async () => undefined);
  };
}

/** Create the Koa server: request ids, JSON logs, the error envelope, body parsing, routes. */
export function createHttpServer(options: HttpServerOptions): HttpServer {
  const koa = new Koa<RequestState>();
  if (options.proxy) trustProxy(koa, options.proxy);
  const routes: Route[] = [];
  const extra: Array<Koa.Middleware<RequestState>> = [];
  const around: RouteMiddleware[] = [];
  let server: http.Server | undefined;
  const { drainLimit: drainOption, ...parserLimits } = options.body;
  const drainLimit = byteSize(drainOption ?? Math.max(...Object.values(parserLimits).map(byteSize)));

  koa.use(async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = options.log.child({ reqId: requestId });
    ctx.set('X-Request-Id', requestId);
    // as Strapi's security middleware: a response is what its Content-Type says, never sniffed
    // (uploaded files are served from the same origin)
    ctx.set('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    // a client that closes before its answer is complete has given up: stop its statements
    const abandoned = new AbortController();
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) abandoned.abort();
    });
    try {
      await (options.cancellation ? options.cancellation.run(abandoned.signal, next) : next());
    } catch (err) {
      const known = toAppError(err);
      if (!known) {
        ctx.state.log.error({ err }, 'unhandled error');
      } else if (known.cause !== undefined) {
        // what the client is not shown (a PostgreSQL error behind a 400, say) is kept for whoever debugs it
        ctx.state.log.debug({ err: known.cause, code: known.code, status: known.status }, 'error answered: its cause');
      }
      const appErr = known ?? internalError();
      ctx.status = appErr.status;
      ctx.body = { data: null, error: appErr.toJSON() };
    }
    bodyAsBytes(ctx);
    // answered before the body was read (refused, 413, a route that reads none): read the rest first, so
    // the client, still sending, gets the answer; past the limit, close rather than read on
    const limit = Math.max(drainLimit, ctx.state.bodyLimit ?? 0);
    if (!ctx.req.complete && !(await drainBody(ctx.req, limit))) ctx.set('Connection', 'close');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = { method: ctx.method, url: ctx.url, status: ctx.status, ms: Math.round(ms * 100) / 100 };
    ctx.state.log.info(line, 'request');
  });

  if (options.cors) koa.use(options.cors);

  koa.use(async (ctx, next) => {
    guardUrl(ctx.url);
    try {
      ctx.state.query = qs.parse(ctx.querystring, QS_OPTIONS) as Record<string, unknown>;
    } catch {
      throw validationError('Invalid query string: too deep or too many parameters');
    }
    await next();
  });

  // Not strict: any JSON value parses, so a body that is not an object gets the route's own
  // error (REST: 'Missing "data" payload') rather than a misleading "Invalid JSON".
  const parsedMethods = [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH];
  koa.use(koaBody({ ...parserLimits, jsonStrict: false, multipart: false, parsedMethods }));
  koa.use(async (ctx, next) => {
    guardBody(ctx.request.body);
    await next();
  });
  // composed when the server starts (later `use` calls are refused); a second `next()` is koa-compose's error
  let extras: Koa.Middleware<RequestState> | undefined;
  koa.use((ctx, next) => (extras ? extras(ctx, next) : next()));

  const files = options.publicDir ? publicFiles(options.publicDir) : undefined;

  function mountRoutes(): void {
    // nothing answered (no route, and allowedMethods found no other method): a public file, or
    // Strapi's 404 envelope. After the router, so a route's request never touches the disk.
    koa.use(async (ctx, next) => {
      await next();
      if (ctx.status === 404 && ctx.body == null && files) await files(ctx);
      if (ctx.status === 404 && ctx.body == null) throw notFound();
      // allowedMethods answered 405 (or 501 for a method no route uses) and set the Allow header HTTP requires
      if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) throw methodNotAllowed();
    });
    const router = new Router<RequestState>();
    for (const r of routes) {
      // the route middleware and then the handler, one chain per route
      const chain = compose<RequestContext>([
        ...around.map((mw) => (ctx: RequestContext, next: Koa.Next) => mw(ctx, r, next)),
        (ctx: RequestContext) => r.handler(ctx),
      ]);
      router.register(r.path, [r.method], async (koaCtx) => {
        const ctx = koaCtx as unknown as RequestContext;
        if (r.bodyLimit !== undefined) ctx.state.bodyLimit = r.bodyLimit;
        await chain(ctx);
      });
    }
    koa.use(router.routes());
    koa.use(router.allowedMethods());
  }

  return {
    koa,
    route(route) {
      if (server) throw configurationError(`route ${route.method} ${route.path} added after the server started`);
      routes.push(route);
    },
    routes: () => routes,
    use(middleware) {
      if (server) throw configurationError('a middleware was added after the server started');
      extra.push(middleware);
    },
    useRoute(middleware) {
      if (server) throw configurationError('a route middleware was added after the server started');
      around.push(middleware);
    },
    async listen(port, host) {
      if (extra.length > 0) extras = compose(extra);
      mountRoutes();
      server = http.createServer(koa.callback());
      server.on('clientError', answerClientError);
      // keep-alive sockets must not outlive a graceful shutdown by more than the timeout
      server.keepAliveTimeout = 5000;
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, host, () => resolve());
      });
      return server.address() as AddressInfo;
    },
    async close(timeoutMs) {
      const s = server;
      if (!s) return;
      server = undefined;
      const closed = new Promise<void>((resolve) => s.close(() => resolve()));
      s.closeIdleConnections();
      const timer = setTimeout(() => s.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
