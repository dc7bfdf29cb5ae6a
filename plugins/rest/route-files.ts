/**
 * An app's `src/api/<api>/routes/*` files: Strapi 5's core routers
 * (`factories.createCoreRouter(uid, { only, except, config })`), read once at start. Each action
 * a router keeps gets its policies and route middlewares resolved here, so a misspelled name or
 * a malformed item stops the start instead of failing a request.
 */
import path from 'node:path';
import compose from 'koa-compose';
import {
  type App,
  type ContentType,
  type CoreRouter,
  configurationError,
  ConfigurationError,
  createPolicyContext,
  importUserModule,
  isCoreRouter,
  isPlainObject,
  modulesIn,
  type PolicyHandler,
  policiesPass,
  policyFailed,
  type RequestContext,
  resolveMiddlewares,
  resolvePolicies,
  subdirectories,
} from '../../core/index.ts';

/** A routes file's core router, with where it came from (for messages and api-relative names). */
export interface RouterFile {
  file: string;
  api: string;
  router: CoreRouter;
}

type KoaStep = (ctx: RequestContext, next: () => Promise<unknown>) => unknown;

/** Every core router of the app, by content-type uid; anything else in a routes folder stops the start. */
export async function loadRouterFiles(app: App): Promise<Map<string, RouterFile>> {
  const apiDir = path.join(app.appDir, 'src', 'api');
  const out = new Map<string, RouterFile>();
  for (const api of await subdirectories(apiDir)) {
    for (const { file } of await modulesIn(path.join(apiDir, api, 'routes'))) {
      const router = await importUserModule(file);
      if (!isCoreRouter(router)) {
        throw configurationError(
          `${file}: custom route files are not supported yet; export factories.createCoreRouter(uid, options)`,
        );
      }
      if (!app.registry.hasContentType(router.uid) || app.registry.contentType(router.uid).origin !== 'api') {
        throw configurationError(`${file}: createCoreRouter('${router.uid}'): there is no such content-type`);
      }
      const earlier = out.get(router.uid);
      if (earlier) throw configurationError(`${file}: ${router.uid} already has a core router (${earlier.file})`);
      out.set(router.uid, { file, api, router });
    }
  }
  return out;
}

/** Check `only`, `except` and `config` name actions the type has; returns whether `action` is kept. */
export function checkRouter(entry: RouterFile, actions: string[]): (action: string) => boolean {
  const { file, router } = entry;
  const known = (list: unknown, key: string): string[] | undefined => {
    if (list === undefined) return undefined;
    if (!Array.isArray(list)) throw configurationError(`${file}: ${key} must be an array of action names`);
    for (const a of list) {
      if (!actions.includes(a)) {
        throw configurationError(`${file}: ${key}: unknown action "${a}" (actions: ${actions.join(', ')})`);
      }
    }
    return list as string[];
  };
  const only = known(router.only, 'only');
  const except = known(router.except, 'except');
  if (router.config !== undefined && !isPlainObject(router.config))
    throw configurationError(`${file}: config must be an object of actions`);
  known(Object.keys(router.config ?? {}), 'config');
  for (const [action, cfg] of Object.entries(router.config ?? {})) {
    const extra = isPlainObject(cfg) ? Object.keys(cfg).filter((k) => k !== 'policies' && k !== 'middlewares') : [];
    if (!isPlainObject(cfg) || extra.length > 0) {
      const what = extra.length > 0 ? `${extra.join(', ')} not supported yet` : 'must be an object';
      throw configurationError(`${file}: config.${action}: ${what} (policies and middlewares are)`);
    }
  }
  return (action) => (!only || only.includes(action)) && !except?.includes(action);
}

/**
 * A name in an API's routes file: `api::<api>.<name>` when the API has one so named (as Strapi
 * resolves it), else the global one (`app.policy`'s bare name).
 */
function relative<T>(lookup: (name: string) => T, api: string): (name: string) => T {
  return (name) => {
    if (name.includes('::')) return lookup(name);
    try {
      return lookup(`api::${api}.${name}`);
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      return lookup(name);
    }
  };
}

/** A lookup whose unknown names are reported with the route (file and action) they were given for. */
function inRoute<T>(lookup: (name: string) => T, where: string): (name: string) => T {
  return (name) => {
    try {
      return lookup(name);
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      throw configurationError(`${where}: ${err.message}`, { cause: err });
    }
  };
}

/**
 * The controller of one action, behind its policies and then its route middlewares (in order), as
 * Strapi 5's compose-endpoint: authentication and authorization, a route middleware of the
 * users-permissions plugin, run before all of it.
 */
export function withRouteConfig(
  app: App,
  entry: RouterFile | undefined,
  action: string,
  controller: (ctx: RequestContext) => Promise<void>,
): (ctx: RequestContext) => Promise<void> {
  const cfg = entry?.router.config?.[action];
  if (!entry || !cfg) return controller;
  const where = `${entry.file} ${action}`;
  const policyOf = inRoute(
    relative<PolicyHandler>((n) => app.policy(n), entry.api),
    where,
  );
  const deps = { strapi: app.strapi, app };
  const policies = resolvePolicies(cfg.policies, policyOf, where);
  const factoryOf = inRoute(
    relative((name) => app.middleware(name), entry.api),
    where,
  );
  const middlewares = resolveMiddlewares<KoaStep>(cfg.middlewares, factoryOf, deps, where, (_ctx, next) => next());
  const policyStep: KoaStep = async (ctx, next) => {
    // Strapi's policy context over koa's: ctx.state (auth), ctx.params, ctx.request are there
    if (!(await policiesPass(policies, createPolicyContext('koa', ctx), deps))) throw policyFailed();
    return next();
  };
  const chain = compose<RequestContext>([
    ...(policies.length > 0 ? [policyStep] : []),
    ...middlewares,
    (ctx: RequestContext) => controller(ctx),
  ] as compose.Middleware<RequestContext>[]);
  return (ctx) => chain(ctx);
}

/** The routes-file entry of a content-type, checked against its actions. */
export function routerFor(
  routers: Map<string, RouterFile>,
  ct: ContentType,
  actions: string[],
): { entry: RouterFile | undefined; keeps: (action: string) => boolean } {
  const entry = routers.get(ct.uid);
  return { entry, keeps: entry ? checkRouter(entry, actions) : () => true };
}
