import type Koa from 'koa';
import koaCors from '@koa/cors';
import { configurationError } from '../errors.ts';
import { isPlainObject, type PlainObject } from '../config/merge.ts';
import type { MiddlewaresConfig } from '../config/load.ts';

/** The origins allowed: '*', a list (or a comma-separated string), or a function of the request. */
export type CorsOrigin = string | string[] | ((ctx: Koa.Context) => string | string[] | Promise<string | string[]>);

/** Strapi's `strapi::cors` options, with Strapi's names. */
export interface CorsConfig {
  origin: CorsOrigin;
  /** `Access-Control-Expose-Headers` */
  expose?: string | string[];
  /** seconds a browser may keep a preflight's answer */
  maxAge: number;
  credentials: boolean;
  methods: string | string[];
  headers: string | string[];
}

/** Strapi 5's defaults. */
export const CORS_DEFAULTS: CorsConfig = {
  origin: '*',
  maxAge: 31536000,
  credentials: true,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
};

const NAME = 'strapi::cors';
// `keepHeaderOnError` is how Strapi's documentation spells the option its code calls `keepHeadersOnError`
const KEYS = new Set([
  'enabled',
  'origin',
  'expose',
  'maxAge',
  'credentials',
  'methods',
  'headers',
  'keepHeadersOnError',
  'keepHeaderOnError',
]);

const isStrings = (v: unknown): v is string | string[] =>
  typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** One place's options, checked; `enabled` aside. A misspelt key would silently leave a default open. */
function checkOptions(raw: unknown, where: string): Partial<CorsConfig> & { enabled?: boolean } {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) throw configurationError(`${where} must be an object`);
  const fail = (key: string, what: string) => configurationError(`${where}.${key} must be ${what}`);
  const unknown = Object.keys(raw).filter((key) => !KEYS.has(key));
  if (unknown.length > 0) {
    throw configurationError(`${where}: unknown option ${unknown.join(', ')} (known: ${[...KEYS].join(', ')})`);
  }
  const { enabled, origin, expose, maxAge, credentials, methods, headers } = raw;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw fail('enabled', 'a boolean');
  if (origin !== undefined && !isStrings(origin) && typeof origin !== 'function') {
    throw fail('origin', "'*', an origin, a list of origins or a function of the request");
  }
  if (expose !== undefined && !isStrings(expose)) throw fail('expose', 'a string or a list of strings');
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && (maxAge as number) >= 0)) {
    throw fail('maxAge', 'a whole number of seconds');
  }
  if (credentials !== undefined && typeof credentials !== 'boolean') throw fail('credentials', 'a boolean');
  if (methods !== undefined && !isStrings(methods)) throw fail('methods', 'a string or a list of strings');
  if (headers !== undefined && !isStrings(headers)) throw fail('headers', 'a string or a list of strings');
  const out: Partial<CorsConfig> & { enabled?: boolean } = {};
  for (const [key, value] of Object.entries({ enabled, origin, expose, maxAge, credentials, methods, headers })) {
    if (value !== undefined) (out as PlainObject)[key] = value;
  }
  return out;
}

/**
 * The CORS settings: Strapi's defaults, then the options of the `strapi::cors` entry of
 * `config/middlewares`, then `server.cors`. Null when CORS is off: the middlewares list leaves
 * `strapi::cors` out (as in Strapi), or either place says `enabled: false`. Other entries are
 * Strapi middlewares Vellum has built in, or the app's own, which Vellum does not load.
 */
export function readCorsConfig(middlewares: MiddlewaresConfig, serverCors: unknown): CorsConfig | null {
  let listed: unknown;
  for (const [i, entry] of middlewares.entries()) {
    if (entry === NAME) listed ??= {};
    else if (isPlainObject(entry) && entry.name === NAME) listed = entry.config ?? {};
    else if (typeof entry !== 'string' && !isPlainObject(entry)) {
      throw configurationError(`config/middlewares[${i}] must be a middleware name or { name, config }`);
    }
  }
  if (listed === undefined) return null;
  const fromList = checkOptions(listed, `config/middlewares '${NAME}' config`);
  const fromServer = checkOptions(serverCors, 'server.cors');
  if (fromList.enabled === false || fromServer.enabled === false) return null;
  const merged = { ...CORS_DEFAULTS, ...fromList, ...fromServer };
  delete merged.enabled;
  return merged;
}

/** '*' (any origin), or the exact origins allowed. */
function allowedOrigins(origin: string | string[]): '*' | string[] {
  const list = (Array.isArray(origin) ? origin : origin.split(',')).map((o) => o.trim()).filter((o) => o !== '');
  return list.includes('*') ? '*' : list;
}

/**
 * Strapi's `strapi::cors` over @koa/cors. Only an allowed Origin is ever named back; with
 * credentials on and any origin allowed, that is the request's own Origin (a browser refuses
 * `*` with credentials). A request without Origin is not a CORS request: it gets `*` and no
 * credentials. A preflight (OPTIONS with Access-Control-Request-Method) is answered 204 here,
 * before routing, so it works for a route that only has other methods. Mounted inside the
 * error envelope, whose answers keep these headers whatever `keepHeadersOnError` says (a
 * browser could not read the error otherwise).
 */
export function createCors<State>(config: CorsConfig): Koa.Middleware<State> {
  const { origin } = config;
  const fixed = typeof origin === 'function' ? undefined : allowedOrigins(origin);
  const allowedFor = async (ctx: Koa.Context): Promise<'*' | string[]> => {
    if (typeof origin !== 'function') return fixed ?? [];
    const given = await origin(ctx);
    if (!isStrings(given)) throw configurationError('the strapi::cors origin function must return origins (strings)');
    return allowedOrigins(given);
  };
  const middleware = koaCors({
    async origin(ctx) {
      const requested = ctx.get('Origin');
      if (requested === '') return '*';
      const allowed = await allowedFor(ctx);
      if (allowed === '*') return config.credentials ? requested : '*';
      // nothing: @koa/cors then sets no CORS header and the browser refuses the answer
      return allowed.includes(requested) ? requested : '';
    },
    credentials: (ctx) => config.credentials && ctx.get('Origin') !== '',
    exposeHeaders: config.expose,
    maxAge: config.maxAge,
    allowMethods: config.methods,
    allowHeaders: config.headers,
  });
  return middleware as unknown as Koa.Middleware<State>;
}
