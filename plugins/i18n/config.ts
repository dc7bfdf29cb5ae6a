import { expected, LOCALE_CODE, z } from '../../core/index.ts';

export interface LocaleConfig {
  code: string;
  name: string;
}
export interface I18nConfig {
  locales: LocaleConfig[];
  defaultLocale: string;
}

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

const code = z.string().regex(LOCALE_CODE);

/**
 * `config/plugins` → `i18n.config`: `locales` (codes or `{ code, name }`, default `['en']`) and
 * `defaultLocale` (default: the first locale), which must be one of them.
 */
export const i18nConfigSchema = z
  .object({
    locales: z
      .array(z.union([code, z.object({ code, name: z.string().optional() })]))
      .min(1)
      .default(['en']),
    defaultLocale: z.string().optional(),
  })
  .transform((raw, ctx): I18nConfig => {
    const locales = raw.locales.map((item): LocaleConfig => {
      const c = typeof item === 'string' ? item : item.code;
      return { code: c, name: (typeof item === 'string' ? undefined : item.name) ?? displayName(c) };
    });
    const codes = locales.map((l) => l.code);
    codes.forEach((c, i) => {
      if (codes.indexOf(c) !== i) {
        const message = expected('each locale once');
        ctx.addIssue({ code: 'custom', path: ['locales', i], input: raw.locales[i], message });
      }
    });
    const defaultLocale = raw.defaultLocale ?? codes[0];
    if (!codes.includes(defaultLocale)) {
      const message = expected(`one of the locales (${[...new Set(codes)].join(', ')})`);
      ctx.addIssue({ code: 'custom', path: ['defaultLocale'], input: defaultLocale, message });
    }
    return { locales, defaultLocale };
  });
