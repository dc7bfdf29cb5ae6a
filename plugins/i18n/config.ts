import { configurationError, isPlainObject, LOCALE_CODE, type PlainObject } from '../../core/index.ts';

export interface LocaleConfig { code: string; name: string }
export interface I18nConfig { locales: LocaleConfig[]; defaultLocale: string }

/** Strapi names locales "English (en)". */
function displayName(code: string): string {
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames(['en'], { type: 'language' }).of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

/** `config/plugins` → `i18n.config`: `locales` (codes or `{code, name}`) and `defaultLocale`. */
export function readI18nConfig(raw: PlainObject): I18nConfig {
  const list = raw.locales ?? ['en'];
  if (!Array.isArray(list) || list.length === 0) throw configurationError('config/plugins: i18n.config.locales must be a non-empty array');
  const locales = list.map((item): LocaleConfig => {
    const code = isPlainObject(item) ? item.code : item;
    if (typeof code !== 'string' || !LOCALE_CODE.test(code)) {
      throw configurationError(`config/plugins: i18n.config.locales has an invalid locale code ${JSON.stringify(code)}`);
    }
    const name = isPlainObject(item) && typeof item.name === 'string' ? item.name : displayName(code);
    return { code, name };
  });
  const codes = locales.map((l) => l.code);
  if (new Set(codes).size !== codes.length) throw configurationError('config/plugins: i18n.config.locales lists a locale twice');
  const defaultLocale = raw.defaultLocale ?? codes[0];
  if (typeof defaultLocale !== 'string' || !codes.includes(defaultLocale)) {
    throw configurationError(`config/plugins: i18n.config.defaultLocale ${JSON.stringify(defaultLocale)} is not one of the locales (${codes.join(', ')})`);
  }
  return { locales, defaultLocale };
}
