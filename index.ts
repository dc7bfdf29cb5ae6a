/**
 * Vellum's public entry: create an app with the built-in plugins. Everything a plugin author
 * needs (createApp, definePlugin, the document service's types, query parsing, the error
 * catalog, config readers) is the core's surface, `core/index.ts`, re-exported whole.
 */
import { createApp, type App, type AppOptions } from './core/index.ts';
import { builtinPlugins } from './plugins/index.ts';

export * from './core/index.ts';
export { builtinPlugins } from './plugins/index.ts';
// the built-in plugins' handles, for `app.plugin(uploadPlugin).service` and the like
export { uploadPlugin } from './plugins/upload/index.ts';
export { i18nPlugin } from './plugins/i18n/index.ts';
export { usersPermissionsPlugin } from './plugins/users-permissions/index.ts';
export { restPlugin } from './plugins/rest/index.ts';

/** An app with Vellum's built-in plugins (plus any extra ones). */
export function createVellumApp(
  options: Omit<AppOptions, 'plugins'> & { plugins?: AppOptions['plugins'] },
): Promise<App> {
  return createApp({ ...options, plugins: [...builtinPlugins(), ...(options.plugins ?? [])] });
}
