/**
 * The keys of `config/server`, `config/database` and `config/api` the kernel reads, as zod
 * schemas: checked once in `createApp`, so a bad value stops start-up naming its file and key.
 * Defaults are the platform's (`config/*.ts` of Vellum), repeated here for configs built by hand.
 */
import { z } from 'zod';
import { BYTE_SIZE } from '../http/drain.ts';
import { DEFAULT_QUERY_LIMITS } from '../query/bounds.ts';
import { expected } from './validate.ts';

const count = () => z.number().int().nonnegative();
const port = () => z.number().int().min(0).max(65535);
const byteSize = () =>
  z.union(
    [
      z.string().regex(BYTE_SIZE, { message: expected("a size like '2mb' (b, kb, mb, gb)") }),
      z.number().int().nonnegative(),
    ],
    { message: expected("a number of bytes or a size like '2mb'") },
  );

/** `server.proxy`: false, true, a hop count, or Strapi's `{ koa, maxIpsCount, ipHeader }` (see http/proxy.ts). */
const proxy = z.union(
  [
    z.boolean(),
    z.null(),
    z.number().int().min(0).max(32),
    z.object({
      koa: z.boolean().optional(),
      maxIpsCount: z.number().int().min(1).max(32).optional(),
      ipHeader: z
        .string()
        .regex(/^[A-Za-z0-9-]{1,64}$/, { message: expected('a header name') })
        .optional(),
    }),
  ],
  { message: expected('false, true, a number of proxies (0 to 32) or { koa, maxIpsCount, ipHeader }') },
);

export type ProxyConfig = z.output<typeof proxy>;

export const serverConfigSchema = z.object({
  host: z.string().default('0.0.0.0'),
  port: port().default(1337),
  /** the public address links in emails start with; checked as a URL where it is used */
  url: z.string().optional(),
  /** serve the content API without users-permissions (core/auth/open-api.ts) */
  openApi: z.boolean().optional(),
  proxy: proxy.optional(),
  body: z
    .object({
      jsonLimit: byteSize().default('2mb'),
      formLimit: byteSize().default('2mb'),
      textLimit: byteSize().default('2mb'),
      drainLimit: byteSize().optional(),
    })
    .prefault({}),
  shutdownTimeoutMs: count().default(10000),
  publicDir: z.string().min(1).default('public'),
  logger: z
    .object({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /** readable lines or JSON lines; `auto`: readable at a terminal outside production (kernel/logger.ts) */
      format: z.enum(['auto', 'pretty', 'json']).default('auto'),
    })
    .prefault({}),
  /** answers to reads kept in memory while what they read is unchanged (core/cache) */
  responseCache: z
    .object({
      enabled: z.boolean().default(true),
      /** the memory the kept answers may take, in bytes */
      maxBytes: z
        .number()
        .int()
        .positive()
        .default(64 * 1024 * 1024),
    })
    .prefault({}),
  // `cors` is read with `config/middlewares`' entry, by http/cors.ts, which names its keys itself
});

const connectionOptions = z.record(z.string(), z.unknown());

export const databaseConfigSchema = z.object({
  /** knex's `{ client, connection }`; absent: the embedded PostgreSQL */
  connection: z
    .object({
      client: z.string().optional(),
      connection: z.union([z.string().min(1), connectionOptions]),
    })
    .optional(),
  pool: z
    .object({
      min: count().optional(),
      max: z.number().int().positive().optional(),
      /** ms an unused connection stays open (tarn's option; Vellum's default is 10 minutes) */
      idleTimeoutMillis: z.number().int().positive().optional(),
    })
    .refine((p) => p.min === undefined || p.max === undefined || p.min <= p.max, {
      message: expected('min <= max'),
      path: ['min'],
    })
    .optional(),
  /** milliseconds; 0: none */
  statementTimeout: count().optional(),
  /**
   * rows of an older render (the schema changed) a start renders again before serving; a table with
   * more is rendered again in the background (default 10000)
   */
  inlineRenderRows: count().optional(),
  embedded: z
    .object({
      dataDir: z.string().min(1).optional(),
      port: port().optional(),
      restarts: count().optional(),
    })
    .optional(),
});

export const apiConfigSchema = z.object({
  rest: z
    .object({
      /** '' or a path starting with '/' */
      prefix: z
        .string()
        .regex(/^(\/.*)?$/, { message: expected("a path starting with '/'") })
        .default('/api'),
      defaultLimit: z.number().int().positive().default(25),
      /** null: no maximum */
      maxLimit: z.number().int().positive().nullable().default(100),
      withCount: z.boolean().default(true),
      maxQueryDepth: count().default(DEFAULT_QUERY_LIMITS.maxDepth),
      maxQueryConditions: count().default(DEFAULT_QUERY_LIMITS.maxConditions),
    })
    .prefault({}),
});

export type ServerConfig = z.output<typeof serverConfigSchema>;
export type DatabaseConfig = z.output<typeof databaseConfigSchema>;
export type ApiConfig = z.output<typeof apiConfigSchema>;
