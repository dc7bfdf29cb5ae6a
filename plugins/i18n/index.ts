import { type App, definePlugin, restApiConfig } from '../../core/index.ts';
import { i18nConfigSchema, type I18nConfig } from './config.ts';
import { LOCALE_UID, localeContentType } from './locale-schema.ts';
import { createI18nMiddleware } from './middleware.ts';

export interface I18nApi {
  readonly config: I18nConfig;
}

/** Make the locale documents match the configuration (locales are declared as code, not clicked in an admin). */
async function syncLocales(app: App, config: I18nConfig): Promise<void> {
  const locales = app.documents(LOCALE_UID);
  const existing = await locales.findMany({ locale: '*' });
  for (const doc of existing) {
    if (!config.locales.some((l) => l.code === doc.code))
      await locales.delete({ documentId: doc.documentId as string });
  }
  for (const { code, name } of config.locales) {
    const data = { code, name, isDefault: code === config.defaultLocale };
    const found = existing.find((d) => d.code === code);
    if (!found) await locales.create({ data });
    else if (found.name !== name || found.isDefault !== data.isDefault)
      await locales.update({ documentId: found.documentId as string, data });
  }
}

/**
 * Internationalization: the locales from `config/plugins` (`i18n.config.locales`,
 * `defaultLocale`), the locale rules of the document service, and `GET /api/i18n/locales`.
 */
export const i18nPlugin = definePlugin({
  name: 'i18n',
  register(app): I18nApi {
    const config = app.pluginConfig('i18n', i18nConfigSchema);
    app.registry.addContentType(localeContentType);
    app.documents.use(createI18nMiddleware(config, app.registry));
    const { prefix, pagination } = restApiConfig(app.config);
    // a list is bounded like every other list (Strapi's takes no query and lists every locale)
    const bounded = { start: 0, limit: pagination.maxLimit, style: 'page', withCount: false } as const;
    app.server.route({
      method: 'GET',
      path: `${prefix}/i18n/locales`,
      config: { action: 'plugin::i18n.locales.listLocales' },
      async handler(ctx) {
        // a bare array, as Strapi answers this route
        ctx.body = await app.documents(LOCALE_UID).findMany({ locale: '*', pagination: bounded });
      },
    });
    return { config };
  },
  async bootstrap(app, api) {
    await syncLocales(app, api.config);
  },
});
