import type { ContentType } from '../../core/index.ts';

export const LOCALE_UID = 'plugin::i18n.locale';

/** `plugin::i18n.locale`: the configured locales, kept as documents so they answer like Strapi's. */
export const localeContentType: ContentType = {
  uid: LOCALE_UID,
  kind: 'collectionType',
  collectionName: 'i18n_locale',
  info: { singularName: 'locale', pluralName: 'locales', displayName: 'Locale' },
  options: { draftAndPublish: false },
  pluginOptions: {},
  origin: 'i18n',
  source: '',
  attributes: {
    name: { type: 'string' },
    code: { type: 'string', unique: true, required: true },
    isDefault: { type: 'boolean', default: false },
  },
};
