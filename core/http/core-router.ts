/**
 * Strapi's `factories.createCoreRouter(uid, options)`, as an app's `src/api/<api>/routes/<name>.ts`
 * calls it: a plain description of which core routes a content-type has (`only`, `except`) and
 * what runs on each action (`config[action].policies`, `.middlewares`). The REST plugin reads it.
 *
 * It is recognised by its `type` field, never by identity: the app's file may have loaded another
 * copy of this module (tsx's loader while Vellum itself came through vitest, say).
 */

/** What one core action may be given (Strapi's route `config`). */
export interface CoreRouteConfig {
  /** names, `{ name, config }` or inline `(context, config, { strapi })` functions */
  policies?: unknown[];
  /** names, `{ name, options }` (or Strapi's `{ name, config }`) or inline koa `(ctx, next)` functions */
  middlewares?: unknown[];
}

export interface CoreRouterOptions {
  /** only these actions get a route */
  only?: string[];
  /** every action but these gets a route */
  except?: string[];
  /** per action: its policies and middlewares */
  config?: Record<string, CoreRouteConfig>;
}

/** The description `createCoreRouter` returns. */
export interface CoreRouter extends CoreRouterOptions {
  type: 'vellum:core-router';
  uid: string;
}

/** Whether a routes module's export is a core router's description. */
export const isCoreRouter = (value: unknown): value is CoreRouter =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'vellum:core-router';

/** Strapi's `factories` (`createCoreRouter` only: controllers and services are Vellum's own). */
export const factories = {
  /** Describe the core routes of `uid` with their per-action policies and middlewares. */
  createCoreRouter(uid: string, options: CoreRouterOptions = {}): CoreRouter {
    return { ...options, type: 'vellum:core-router', uid };
  },
};
