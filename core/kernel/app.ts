import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { access } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { loadConfig, type ConfigOverrides, type RawConfig } from '../config/load.ts';
import type { PlainObject } from '../config/merge.ts';
import { parseConfig, type ConfigSchema } from '../config/validate.ts';
import { apiConfigSchema, databaseConfigSchema, serverConfigSchema } from '../config/schemas.ts';
import { createRegistry, type Registry } from '../content-types/registry.ts';
import { loadAppSchemas } from '../content-types/load.ts';
import { createDocumentService, type DocumentService } from '../documents/service.ts';
import { draftAndPublish } from '../documents/draft-publish.ts';
import { createHttpServer, type HttpServer, type HttpServerOptions, type RequestContext } from '../http/server.ts';
import { readProxyConfig } from '../http/proxy.ts';
import { createCors, readCorsConfig } from '../http/cors.ts';
import { configurationError } from '../errors.ts';
import { isOpenApi, openAccess } from '../auth/open-api.ts';
import { createConnection, type ConnectionOptions } from '../../database/connection.ts';
import { cancelStatementsAt } from '../../database/cancel.ts';
import { syncTables } from '../../database/sync.ts';
import { type Rerender, rerenderInBackground } from '../../database/rerender.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../database/embedded.ts';
import { createCancellation } from '../../database/cancellation.ts';
import { createStatementNamer } from '../../database/prepared.ts';
import { describeConnection, type DatabaseSummary } from '../../database/describe.ts';
import { orderPlugins, type Plugin } from './plugin.ts';
import { chooseLogFormat, createLogger, type LogFormat } from './logger.ts';
import { createEndpoints, type Endpoints } from './endpoints.ts';
import { importUserModule } from './user-code.ts';
import type { PolicyHandler } from './policies.ts';
import { addPluginEntries, createRegistries, loadAppRegistries, type MiddlewareFactory } from './registries.ts';
import { createStrapiFacade, type StrapiFacade } from './strapi-facade.ts';
import { createCacheLayer, type Generations } from '../cache/index.ts';

/** Vellum's own `config/` folder: the platform defaults every app's config overrides. */
export const PLATFORM_CONFIG_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../config');

export interface AppOptions {
  /** the app folder, in Strapi layout */
  appDir: string;
  /** environment for config files' `env()`; defaults to process.env */
  env?: Record<string, string | undefined>;
  /** config overriding the files, per file name (tests use it) */
  config?: ConfigOverrides;
  /** the plugins to load, in order; `createApp` callers pass the built-in set */
  plugins: Plugin<unknown>[];
  /** connect here instead of what the config says (tests use it) */
  databaseUrl?: string;
  /**
   * Short-lived commands (the CLI's `token`): when a running Vellum already serves the embedded
   * database, use its server instead of refusing, and leave it running on destroy.
   */
  attachEmbedded?: boolean;
  logger?: Logger;
  /** observe every SQL statement */
  onQuery?: (sql: string) => void;
  /**
   * The app can no longer serve: its embedded database died and could not be restarted. The
   * error is logged first; the CLI exits non-zero, so a process supervisor takes over.
   */
  onFatal?: (err: Error) => void;
}

export interface App {
  readonly appDir: string;
  /**
   * the folder served at the root, where the local upload provider writes (`server.publicDir`,
   * default `<app>/public`)
   */
  readonly publicDir: string;
  /** the environment config files saw (process.env unless the caller passed one) */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly config: RawConfig;
  readonly log: Logger;
  /**
   * How `log` writes: `pretty` lines for a person at a terminal, `json` lines otherwise (always
   * `json` for a logger the caller passed). Output meant for people follows it (the start banner).
   */
  readonly logFormat: LogFormat;
  /** The addresses the app serves, by name, for the start banner; plugins add theirs in `register`. */
  readonly endpoints: Endpoints;
  readonly registry: Registry;
  readonly server: HttpServer;
  readonly documents: DocumentService;
  /**
   * Each content type's write generation, as this process knows it (the response cache's
   * freshness; a plugin subscribes to forget what it keeps of a type when it changes)
   */
  readonly generations: Generations;
  /** the knex pool; available once `start()` has connected */
  readonly db: Knex;
  /**
   * The API a plugin's `register` returned, typed by its handle. Looked up by the plugin's (unique)
   * name, not the object: an app's own code may hold another copy of the same plugin's module.
   */
  plugin<API>(plugin: Plugin<API>): API;
  /** Whether the plugin is installed and enabled (and registered); by name, as `plugin`. */
  hasPlugin(plugin: Pick<Plugin<unknown>, 'name'>): boolean;
  /**
   * A registered policy: `global::x` (or bare `x`), `api::<api>.x`, `plugin::<plugin>.x`; an unknown
   * name is a ConfigurationError listing the known ones.
   */
  policy(name: string): PolicyHandler;
  /** A registered middleware factory, named as policies are. */
  middleware(name: string): MiddlewareFactory;
  /** The Strapi-compatible facade (`strapi.plugin(name).service(…)`, `strapi.documents(uid)`…) for ported code. */
  readonly strapi: StrapiFacade;
  /** The `config` object of a plugin from `config/plugins`, as written. */
  pluginConfig<T extends PlainObject = PlainObject>(name: string): T;
  /**
   * The `config` object of a plugin from `config/plugins`, parsed with the plugin's schema (defaults
   * applied); a bad value is a ConfigurationError naming the file that set it and its key.
   */
  pluginConfig<S extends ConfigSchema>(name: string, schema: S): z.output<S>;
  /** Where the data lives (embedded folder, or external host and database), never a password; once started. */
  databaseSummary(): DatabaseSummary;
  /** register → registry freeze → database → table sync → bootstrap */
  start(): Promise<void>;
  /** start (if needed) and listen; returns the address */
  listen(options?: { port?: number; host?: string }): Promise<{ port: number; url: string }>;
  /** stop HTTP (finishing in-flight requests), destroy plugins in reverse, close the pool and the embedded server */
  destroy(): Promise<void>;
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/**
 * What an app's `src/index.{ts,js}` exports (as its default, `module.exports`, or named exports):
 * Strapi's lifecycle functions. `export default { … } satisfies AppLifecycle` types them.
 */
export interface AppLifecycle {
  /** before the registry is frozen: extend schemas, add document middleware and routes */
  register?(context: LifecycleContext): unknown;
  /** once the database is ready and every plugin has bootstrapped */
  bootstrap?(context: LifecycleContext): unknown;
  /** on shutdown, before the plugins are destroyed */
  destroy?(context: LifecycleContext): unknown;
}

/** What the app's lifecycle hooks get: the app, and the Strapi facade ported code expects. */
export interface LifecycleContext {
  app: App;
  strapi: StrapiFacade;
}

const LIFECYCLE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** The app's own `src/index.*` (register/bootstrap/destroy) as the last plugin. */
async function appLifecycle(appDir: string): Promise<Plugin<void> | null> {
  for (const ext of LIFECYCLE_EXTENSIONS) {
    const file = path.join(appDir, 'src', `index${ext}`);
    if (!(await exists(file))) continue;
    const hooks = ((await importUserModule(file)) ?? {}) as AppLifecycle;
    return {
      name: 'app',
      register: async (app) => {
        await hooks.register?.({ app, strapi: app.strapi });
      },
      bootstrap: async (app) => {
        await hooks.bootstrap?.({ app, strapi: app.strapi });
      },
      destroy: async (app) => {
        await hooks.destroy?.({ app, strapi: app.strapi });
      },
    };
  }
  return null;
}

/** Create an app. Nothing runs until `start()` or `listen()`; no state is shared between apps. */
export async function createApp(options: AppOptions): Promise<App> {
  const appDir = path.resolve(options.appDir);
  const env = options.env ?? process.env;
  const overrides = options.config;
  const { config, sources } = await loadConfig({ platformDir: PLATFORM_CONFIG_DIR, appDir, env, overrides });
  // the kernel's own keys are checked before anything runs, each message naming the file and key
  const serverConfig = parseConfig(serverConfigSchema, config.server, { name: 'server', sources });
  const dbConfig = parseConfig(databaseConfigSchema, config.database, { name: 'database', sources });
  parseConfig(apiConfigSchema, config.api, { name: 'api', sources });
  const { level, format } = serverConfig.logger;
  const logFormat = options.logger
    ? 'json'
    : chooseLogFormat(format, { nodeEnv: env.NODE_ENV, isTTY: process.stdout.isTTY === true });
  const log = options.logger ?? createLogger({ level, format: logFormat });
  const endpoints = createEndpoints();
  const registry = createRegistry();
  // the one place the public folder is decided: served here, written by the local upload provider
  const publicDir = path.join(appDir, serverConfig.publicDir);
  // a request's statements are cancelled when its client goes away: the server sets the signal, the pool reads it
  const cancellation = createCancellation();
  const cors = readCorsConfig(config.middlewares, config.server.cors, sources);
  const server = createHttpServer({
    log,
    body: serverConfig.body as HttpServerOptions['body'],
    proxy: readProxyConfig(serverConfig.proxy),
    publicDir,
    cors: cors ? createCors(cors) : undefined,
    cancellation,
  });

  let db: Knex | undefined;
  /** the rows of an older render being rendered again (database/rerender.ts), when the start left any */
  let rerender: Rerender | undefined;
  let connection: ConnectionOptions | string | undefined;
  let embedded: EmbeddedPostgresHandle | undefined;
  // unique to this app, so shutdown can find (and cancel) its own statements on a shared server
  const applicationName = `vellum-${process.pid}-${randomBytes(4).toString('hex')}`;
  const getDb = (): Knex => {
    if (!db) throw new Error('the database is not connected yet: call app.start() first');
    return db;
  };
  const cacheLayer = createCacheLayer({ ...serverConfig.responseCache, log });
  const documents = createDocumentService({ db: getDb, registry, log, generations: cacheLayer.bumps });
  // core behaviour, not a plugin: the outermost middleware, so plugins' middleware sees the draft write
  documents.use(draftAndPublish);

  const lifecycle = await appLifecycle(appDir);
  const enabled = options.plugins.filter((p) => (config.plugins[p.name] as PlainObject | undefined)?.enabled !== false);
  const plugins = orderPlugins(lifecycle ? [...enabled, lifecycle] : enabled);
  // no plugin authenticates requests: refused unless the app opted in to serving everything to anyone
  if (isOpenApi(plugins, config.server.openApi)) {
    log.warn('server.openApi: no plugin authenticates requests, every route is open to anyone');
    server.useRoute(openAccess);
  } else if (config.server.openApi === true) {
    log.warn('server.openApi is ignored: a plugin authenticates every request');
  }
  // by name (unique, orderPlugins checks): see App.plugin
  const apis = new Map<string, unknown>();
  const registries = createRegistries();
  let phase: 'created' | 'starting' | 'started' | 'failed' | 'destroyed' = 'created';
  // the one start: concurrent callers wait for it; once it failed, the app stays failed
  let starting: Promise<void> | undefined;
  let failure: unknown;

  /** Run one plugin's phase; what it throws names the plugin (the original is the cause). */
  async function inPlugin<T>(
    p: Plugin<unknown>,
    stage: 'register' | 'bootstrap',
    work: () => T | Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const named = `Plugin "${p.name}" failed in ${stage}: ${message}`;
      throw configurationError(named, { code: 'PLUGIN_FAILED', cause: err });
    }
  }

  /** register → registry freeze → database → table sync → bootstrap */
  async function boot(): Promise<void> {
    const schemas = await loadAppSchemas(appDir);
    for (const c of schemas.components) registry.addComponent(c);
    for (const ct of schemas.contentTypes) registry.addContentType(ct);
    // every name is known before any code that could look one up runs
    await loadAppRegistries(registries, appDir);
    for (const p of plugins) addPluginEntries(registries, p);
    for (const p of plugins) apis.set(p.name, await inPlugin(p, 'register', () => p.register(app)));
    registry.freeze();
    db = await connect();
    // building an index on a large table may take longer than a request's statements may
    const synced = await db.transaction(async (trx) => {
      await trx.raw('SET LOCAL statement_timeout = 0');
      return syncTables(trx, registry.contentTypes(), registry, { inlineRenderRows: dbConfig.inlineRenderRows });
    });
    if (synced.staleRenders.length > 0) {
      const tables = synced.staleRenders.map((s) => s.table);
      log.info({ tables }, "the schema changed the rows' kept JSON: rendering them again in the background");
      rerender = rerenderInBackground(db, synced.staleRenders, log);
    }
    if (synced.unindexed.length > 0) {
      log.warn(
        `no read index for ${synced.unindexed.join(', ')}: a stored value does not cast to the attribute's type`,
      );
    }
    if (!synced.searchIndexes) {
      log.warn('the pg_trgm extension could not be created: `_q` searches work, without an index');
    }
    await cacheLayer.start(connection!, applicationName);
    server.route({ method: 'GET', path: '/_health', handler: (ctx) => health(ctx, getDb()), config: { auth: false } });
    endpoints.add({ name: 'Health', path: '/_health' });
    for (const p of plugins) await inPlugin(p, 'bootstrap', () => p.bootstrap?.(app, apis.get(p.name)));
    // innermost around every route: after authentication has decided the caller's permission set
    if (cacheLayer.cache) server.useRoute(cacheLayer.cache.middleware);
  }

  async function connect(): Promise<Knex> {
    connection = options.databaseUrl ?? (dbConfig.connection?.connection as string | ConnectionOptions | undefined);
    if (!connection) {
      const dataDir = path.resolve(appDir, dbConfig.embedded?.dataDir ?? '.data');
      log.info({ dataDir }, 'starting embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({
        dataDir,
        port: dbConfig.embedded?.port,
        restarts: dbConfig.embedded?.restarts,
        log: pinoLog(log),
        attach: options.attachEmbedded,
        onFatal: (err) => {
          log.fatal({ err }, 'the embedded database is gone and could not be restarted: the app cannot serve');
          options.onFatal?.(err);
        },
      });
      connection = embedded.url;
    }
    const conn = createConnection({
      connection,
      pool: dbConfig.pool,
      onQuery: options.onQuery,
      applicationName,
      statementTimeout: dbConfig.statementTimeout,
      cancellation,
      // reads and writes share it: as many shapes as the two budgets they had apart (400), plus the
      // reads kept with their values written in (core/documents/read-statements.ts: 512 kB of
      // texts, a filtered list's about 2.6 kB); past it, new shapes run unnamed, as before
      prepare: createStatementNamer(800),
      log: { warn: (msg) => log.warn(msg), debug: (msg) => log.debug(msg) },
    });
    try {
      await conn.raw('select 1');
    } catch (err) {
      // not the app's pool yet, so destroy() would not close it
      await conn.destroy();
      throw err;
    }
    return conn;
  }

  /** A plugin's `config` from config/plugins, as written (`{}` when absent). */
  const rawPluginConfig = (name: string): PlainObject =>
    ((config.plugins[name] as PlainObject | undefined)?.config ?? {}) as PlainObject;
  const strapi = createStrapiFacade({
    config,
    log,
    documents: (uid) => documents(uid),
    pluginApi: (name) => ({ found: apis.has(name), api: apis.get(name) }),
    pluginNames: () => plugins.map((p) => p.name),
    rawPluginConfig: (name) => rawPluginConfig(name),
    policy: (name) => registries.policy(name),
    middleware: (name) => registries.middleware(name),
  });

  const app: App = {
    appDir,
    env,
    publicDir,
    config,
    log,
    logFormat,
    endpoints,
    registry,
    server,
    documents,
    generations: cacheLayer.generations,
    get db() {
      return getDb();
    },
    plugin<API>(plugin: Plugin<API>): API {
      if (!apis.has(plugin.name)) throw configurationError(`Plugin "${plugin.name}" is not registered in this app`);
      return apis.get(plugin.name) as API;
    },
    hasPlugin: (plugin) => apis.has(plugin.name),
    policy: (name) => registries.policy(name),
    middleware: (name) => registries.middleware(name),
    strapi,
    databaseSummary() {
      if (embedded) return { kind: 'embedded', dataDir: embedded.dataDir, clusterDir: embedded.clusterDir };
      if (!connection) throw new Error('the database is not connected yet: call app.start() first');
      return describeConnection(connection);
    },
    pluginConfig(name: string, schema?: ConfigSchema) {
      const raw = rawPluginConfig(name);
      return schema ? parseConfig(schema, raw, { name: 'plugins', key: [name, 'config'], sources }) : raw;
    },
    async start() {
      if (phase === 'failed') {
        const reason = failure instanceof Error ? failure.message : String(failure);
        const message = `The app failed to start (${reason}); destroy it and create a new one`;
        throw configurationError(message, { code: 'APP_FAILED', cause: failure });
      }
      if (phase === 'destroyed') throw configurationError('The app was destroyed; create a new one');
      if (!starting) {
        phase = 'starting';
        // half-started (some plugins registered, a pool, an embedded server): only destroy() is left
        starting = boot().then(
          () => {
            phase = 'started';
          },
          (err: unknown) => {
            phase = 'failed';
            failure = err;
            throw err;
          },
        );
      }
      return starting;
    },
    async listen(opts = {}) {
      await app.start();
      const host = opts.host ?? serverConfig.host;
      const port = opts.port ?? serverConfig.port;
      const address = await server.listen(port, host);
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      return { port: address.port, url: `http://${shownHost}:${address.port}` };
    },
    async destroy() {
      if (phase === 'destroyed') return;
      // a start still under way is let finish (or fail) first, so what it opens is closed too
      if (phase === 'starting') await starting?.catch(() => undefined);
      phase = 'destroyed';
      const timeoutMs = serverConfig.shutdownTimeoutMs;
      const deadline = Date.now() + timeoutMs;
      await server.close(timeoutMs);
      // One budget for the whole shutdown: a statement still running when it is spent (a request cut at
      // the deadline, say) is cancelled, since closing the pool waits for it (up to forever).
      const canceller =
        db && connection ? cancelStatementsAt(deadline, { connection, applicationName, log }) : undefined;
      for (const p of [...plugins].reverse()) {
        if (!apis.has(p.name)) continue;
        try {
          await p.destroy?.(app, apis.get(p.name));
        } catch (err) {
          log.error({ err, plugin: p.name }, 'plugin destroy failed');
        }
      }
      await cacheLayer.stop();
      await rerender?.stop();
      await db?.destroy();
      await canceller?.settle();
      await embedded?.stop();
    },
  };
  return app;
}

/** Liveness with a database round trip: 200 when PostgreSQL answers, 503 otherwise. */
async function health(ctx: RequestContext, db: Knex): Promise<void> {
  try {
    await db.raw('select 1');
    ctx.body = { status: 'ok', database: 'up' };
  } catch (err) {
    ctx.state.log.warn({ err }, 'health check: database unreachable');
    ctx.status = 503;
    ctx.body = { status: 'unavailable', database: 'down' };
  }
}

/** The small logger interface the database launcher wants, on top of pino. */
function pinoLog(log: Logger): {
  info(m: string): void;
  warn(m: string): void;
  error(m: string): void;
  debug(m: string): void;
} {
  const child = log.child({ component: 'postgres' });
  return {
    info: (m) => child.info(m),
    warn: (m) => child.warn(m),
    error: (m) => child.error(m),
    debug: (m) => child.debug(m),
  };
}
