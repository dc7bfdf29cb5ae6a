/**
 * Vellum's public entry: create an app with the built-in plugins. Lower-level pieces
 * (createApp, definePlugin, the error catalog) are exported for plugin authors.
 */
import { createApp, type App, type AppOptions } from './core/kernel/app.ts';
import { builtinPlugins } from './plugins/index.ts';

export { createApp, type App, type AppOptions } from './core/kernel/app.ts';
export { definePlugin, type Plugin } from './core/kernel/plugin.ts';
export * from './core/errors.ts';

/** An app with Vellum's built-in plugins (plus any extra ones). */
export function createVellumApp(options: Omit<AppOptions, 'plugins'> & { plugins?: AppOptions['plugins'] }): Promise<App> {
  return createApp({ ...options, plugins: [...builtinPlugins(), ...(options.plugins ?? [])] });
}
