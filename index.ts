/**
 * Vellum's public entry: create an app with the built-in plugins. Everything a plugin author
 * needs (createApp, definePlugin, the document service's types, query parsing, the error
 * catalog, config readers) is the core's surface, `core/index.ts`, re-exported whole.
 */
import { createApp, type App, type AppOptions } from './core/index.ts';
import { builtinPlugins } from './plugins/index.ts';

export * from './core/index.ts';
export { builtinPlugins } from './plugins/index.ts';

/** An app with Vellum's built-in plugins (plus any extra ones). */
export function createVellumApp(
  options: Omit<AppOptions, 'plugins'> & { plugins?: AppOptions['plugins'] },
): Promise<App> {
  return createApp({ ...options, plugins: [...builtinPlugins(), ...(options.plugins ?? [])] });
}
