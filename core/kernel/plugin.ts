import { configurationError } from '../errors.ts';
import type { App } from './app.ts';
import type { PolicyHandler } from './policies.ts';
import type { MiddlewareFactory } from './registries.ts';

/**
 * A plugin. `register` only declares (content-types, routes, document middleware) and
 * returns the plugin's API, which other code reaches with the typed handle
 * `app.plugin(thePlugin)` (looked up by the plugin's unique name); `bootstrap` runs once the
 * registry is frozen and tables exist;
 * `destroy` runs in reverse order at shutdown.
 */
export interface Plugin<API = unknown> {
  name: string;
  dependencies?: string[];
  /**
   * The plugin authenticates every request: it sets `ctx.state.auth` on every route (or refuses the
   * request). An app needs one such plugin, or `server.openApi: true` (core/auth/open-api.ts).
   */
  authenticates?: boolean;
  /** the plugin's policies, registered as `plugin::<name>.<key>` before any plugin registers */
  policies?: Record<string, PolicyHandler>;
  /** the plugin's middleware factories, registered as `plugin::<name>.<key>` */
  middlewares?: Record<string, MiddlewareFactory>;
  register(app: App): API | Promise<API>;
  bootstrap?(app: App, api: API): void | Promise<void>;
  destroy?(app: App, api: API): void | Promise<void>;
}

/** Declare a plugin with its API type inferred from `register`. */
export const definePlugin = <API>(plugin: Plugin<API>): Plugin<API> => plugin;

/**
 * Order plugins so each comes after its dependencies, keeping the given order otherwise.
 * A missing dependency or a cycle fails before any plugin code runs.
 */
export function orderPlugins(plugins: Plugin<unknown>[]): Plugin<unknown>[] {
  const byName = new Map<string, Plugin<unknown>>();
  for (const p of plugins) {
    if (byName.has(p.name)) throw configurationError(`Plugin "${p.name}" is installed twice`);
    byName.set(p.name, p);
  }
  for (const p of plugins) {
    for (const dep of p.dependencies ?? []) {
      if (!byName.has(dep))
        throw configurationError(`Plugin "${p.name}" depends on plugin "${dep}", which is not installed`);
    }
  }
  const out: Plugin<unknown>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (p: Plugin<unknown>, chain: string[]): void => {
    if (state.get(p.name) === 'done') return;
    if (state.get(p.name) === 'visiting')
      throw configurationError(`Plugin dependency cycle: ${[...chain, p.name].join(' -> ')}`);
    state.set(p.name, 'visiting');
    for (const dep of p.dependencies ?? []) visit(byName.get(dep)!, [...chain, p.name]);
    state.set(p.name, 'done');
    out.push(p);
  };
  for (const p of plugins) visit(p, []);
  return out;
}
