import type Koa from 'koa';
import koaCors from '@koa/cors';
import { configurationError } from '../errors.ts';
import { z } from 'zod';
import { isPlainObject } from '../config/merge.ts';
import type { MiddlewaresConfig } from '../config/load.ts';
import { expected, parseConfig, type ConfigPlace, type ConfigSources } from '../config/validate.ts';

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

const strings = z.union([z.string(), z.array(z.string())], { message: expected('a string or a list of strings') });

/**
 * One place's options (Strapi's names), strict: a misspelt key would silently leave a default
 * open. `keepHeaderOnError` is how Strapi's documentation spells the option its code calls
 * `keepHeadersOnError`; both are accepted and, as in Strapi, change nothing here.
 */
const corsOptions = z.strictObject({
  enabled: z.boolean().optional(),
  origin: z
    .union([z.string(), z.array(z.string()), z.custom<CorsOrigin>((v) => typeof v === 'function')], {
      message: expected("'*', an origin, a list of origins or a function of the request"),
    })
    .optional(),
  expose: strings.optional(),
  maxAge: z.number().int().nonnegative().optional(),
  credentials: z.boolean().optional(),
  methods: strings.optional(),
  headers: strings.optional(),
  keepHeadersOnError: z.boolean().optional(),
  keepHeaderOnError: z.boolean().optional(),
});

/** One place's options, checked (naming the file and key), without the two that change nothing. */
function checkOptions(raw: unknown, place: ConfigPlace): Partial<CorsConfig> & { enabled?: boolean } {
  if (raw === undefined) return {};
  const { keepHeadersOnError: _a, keepHeaderOnError: _b, ...options } = parseConfig(corsOptions, raw, place);
  return options;
}

/**
 * The CORS settings: Strapi's defaults, then the options of the `strapi::cors` entry of
 * `config/middlewares`, then `server.cors`. Null when CORS is off: the middlewares list leaves
 * `strapi::cors` out (as in Strapi), or either place says `enabled: false`. Other entries are
 * Strapi middlewares Vellum has built in, or the app's own, which Vellum does not load.
 */
export function readCorsConfig(
  middlewares: MiddlewaresConfig,
  serverCors: unknown,
  sources?: ConfigSources,
): CorsConfig | null {
  let listed: { value: unknown; at: number } | undefined;
  for (const [i, entry] of middlewares.entries()) {
    if (entry === NAME) listed ??= { value: {}, at: i };
    else if (isPlainObject(entry) && entry.name === NAME) listed = { value: entry.config ?? {}, at: i };
    else if (typeof entry !== 'string' && !isPlainObject(entry)) {
      throw configurationError(`config/middlewares[${i}] must be a middleware name or { name, config }`);
    }
  }
  if (listed === undefined) return null;
  const fromList = checkOptions(listed.value, { name: 'middlewares', key: [listed.at, 'config'] });
  const fromServer = checkOptions(serverCors, { name: 'server', key: ['cors'], sources });
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
    if (!strings.safeParse(given).success)
      throw configurationError('the strapi::cors origin function must return origins (strings)');
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
