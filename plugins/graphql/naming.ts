/**
 * Strapi 4's GraphQL names (`services/utils/naming.js`), from content-type and component uids.
 * Lodash's camelCase splits words at case changes and digits (`i18n` → `I18N`), which
 * `camelCase` below reproduces for the names a schema can hold.
 */
import type { ContentType } from '../../core/index.ts';

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** lodash's camelCase for identifiers: words split at `-`, `_`, spaces, case changes and digit runs. */
export function camelCase(raw: string): string {
  const words =
    raw.match(/[A-Z]{2,}(?=[A-Z][a-z]+[0-9]*|\b)|[A-Z]?[a-z]+[0-9]*|[A-Z]|[0-9]+/g)?.map((w) => w.toLowerCase()) ?? [];
  return words.map((w, i) => (i === 0 ? w : upperFirst(w))).join('');
}

const pascal = (raw: string): string => upperFirst(camelCase(raw));

/** The plugin part of a uid (`plugin::users-permissions.user` → `users-permissions`), '' for `api::`. */
const pluginOf = (uid: string): string => (uid.startsWith('plugin::') ? uid.slice(8).split('.')[0] : '');

/** `Article`, `UploadFile`, `UsersPermissionsUser`, `I18NLocale`. */
export const typeName = (ct: ContentType): string => pascal(pluginOf(ct.uid)) + pascal(ct.info.singularName);

/** `articles`, `uploadFiles`, `i18NLocales`. */
export const findName = (ct: ContentType): string => lowerFirst(pascal(pluginOf(ct.uid)) + pascal(ct.info.pluralName));

/** `article`, `uploadFile`. */
export const findOneName = (ct: ContentType): string => lowerFirst(typeName(ct));

/** `ComponentSharedSeo` from `shared.seo`. */
export function componentName(uid: string): string {
  const [category, name] = uid.split('.');
  return `Component${pascal(category)}${pascal(name)}`;
}

/** `ENUM_ARTICLE_CATEGORY`, `ENUM_COMPONENTSHAREDSOCIALLINK_PLATFORM` (or the attribute's `enumName`). */
export const enumName = (owner: string, attribute: string): string =>
  `ENUM_${owner.toUpperCase()}_${attribute.toUpperCase()}`;

/** `ArticleBlocksDynamicZone` (the union; `…Input` is the input scalar). */
export const dynamicZoneName = (owner: string, attribute: string): string => `${owner}${pascal(attribute)}DynamicZone`;

export const entity = (t: string): string => `${t}Entity`;
export const entityResponse = (t: string): string => `${t}EntityResponse`;
export const entityCollection = (t: string): string => `${t}EntityResponseCollection`;
export const relationCollection = (t: string): string => `${t}RelationResponseCollection`;
export const inputName = (t: string): string => `${t}Input`;
export const filtersName = (t: string): string => `${t}FiltersInput`;
