/**
 * The GraphQL playground: GraphiQL, served by the endpoint itself from installed npm packages
 * (no CDN, so it works offline).
 *
 * Wiring, in the GraphQL plugin's register (before the endpoint's own route, so a browser's GET
 * gets the page and every other request goes on to the endpoint):
 *
 *   if (playgroundEnabled({ nodeEnv: process.env.NODE_ENV, playgroundAlways: config.playgroundAlways })) {
 *     app.server.use(createPlayground({ endpoint: config.endpoint }).middleware);
 *   }
 *
 * `middleware` answers GET/HEAD `<endpoint>` when the client prefers text/html (a browser; curl's
 * `*\/*` and a GraphQL client's JSON get the endpoint) and GET/HEAD `<endpoint>/assets/<name>`;
 * anything else passes through. `page`, `wantsPage` and `assets` are the same pieces, for a plugin
 * that mounts them as routes instead. The page needs no authentication: it holds no data, and its
 * queries carry whatever Authorization header the user types into GraphiQL's headers editor.
 */
import type Koa from 'koa';
import { type Asset, playgroundAssets } from './assets.ts';
import { PLAYGROUND_CSP, playgroundHtml } from './page.ts';

export { playgroundEnabled, type PlaygroundSwitch } from './enabled.ts';
export { PLAYGROUND_CSP } from './page.ts';

export interface PlaygroundOptions {
  /** The GraphQL endpoint's path (`graphql.config.endpoint`, `/graphql` by default). */
  endpoint: string;
  /** The page's title. */
  title?: string;
}

export interface Playground {
  /** Page and assets in one middleware; passes on what is neither. */
  middleware: Koa.Middleware;
  /** Whether this request is a browser's visit to the endpoint (GET or HEAD, text/html preferred). */
  wantsPage(ctx: Koa.Context): boolean;
  /** Answer with the page. */
  page(ctx: Koa.Context): void;
  /** Answer GET/HEAD `<endpoint>/assets/<name>`; passes on any other request. */
  assets: Koa.Middleware;
}

const YEAR = 365 * 24 * 60 * 60;

/** Build the playground for an endpoint. Throws at once if GraphiQL or React is not installed. */
export function createPlayground({ endpoint, title = 'Vellum GraphQL playground' }: PlaygroundOptions): Playground {
  // '/graphql/' and '/graphql' are one endpoint to Koa's router (not strict): the same here
  const base = endpoint.length > 1 ? endpoint.replace(/\/+$/, '') : endpoint;
  const prefix = `${base === '/' ? '' : base}/assets/`;
  const assets = playgroundAssets();
  const assetUrl = (a: Asset): string => `${prefix}${a.name}?v=${a.version}`;
  const html = playgroundHtml(base, title, [...assets.values()], assetUrl);

  const isRead = (ctx: Koa.Context): boolean => ctx.method === 'GET' || ctx.method === 'HEAD';

  const wantsPage = (ctx: Koa.Context): boolean =>
    isRead(ctx) &&
    (ctx.path === base || ctx.path === `${base}/`) &&
    // a tie (no Accept, `*/*`) goes to the first: the endpoint's JSON, never a page a client cannot read
    ctx.accepts('application/graphql-response+json', 'application/json', 'text/html') === 'text/html';

  const page = (ctx: Koa.Context): void => {
    ctx.status = 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', PLAYGROUND_CSP);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Content-Type-Options', 'nosniff');
    // the same URL answers JSON to other clients: caches must tell them apart
    ctx.vary('Accept');
    ctx.body = html;
  };

  const serveAsset: Koa.Middleware = async (ctx, next) => {
    const asset = isRead(ctx) && ctx.path.startsWith(prefix) ? assets.get(ctx.path.slice(prefix.length)) : undefined;
    if (!asset) return next();
    ctx.status = 200;
    ctx.type = asset.type;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.vary('Accept-Encoding');
    // weak: the gzipped and the plain body are the same asset
    ctx.etag = `W/"${asset.version}"`;
    // the page's URLs carry the version: those are cached for good; any other is checked each time
    const versioned = ctx.query.v === asset.version;
    ctx.set('Cache-Control', versioned ? `public, max-age=${YEAR}, immutable` : 'no-cache');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? asset.gzipped() : asset.body();
  };

  return {
    middleware: (ctx, next) => (wantsPage(ctx) ? page(ctx) : serveAsset(ctx, next)),
    wantsPage,
    page,
    assets: serveAsset,
  };
}
