/**
 * Which versions of a document a read (or a compiled filter, sort or populate) sees: its
 * status and locale, as one SQL condition on a row.
 */
import { isLocalized, type ContentType } from '../content-types/types.ts';
import { COLUMNS, qualified, type SqlFragment } from './sql.ts';
import type { Status } from './types.ts';

/** Which version of a document a read or write is about. */
export interface Scope {
  status: Status;
  /** null or '*': any locale */
  locale?: string | null;
}

/**
 * The scope compiled filters and sorts assume when a caller names none: published rows of
 * every locale, so a draft is never revealed to a caller that forgot to say it reads drafts.
 */
export const DEFAULT_SCOPE: Readonly<Scope> = Object.freeze({ status: 'published', locale: null });

/**
 * Which rows of `ct` `scope` names: published ones or drafts (without draft & publish there is
 * only the published row, whatever status is asked for), and one locale or every locale
 * (undefined; a locale applies only to localized types, others store `locale` null).
 */
export function scopedRows(ct: ContentType, scope: Scope): { published: boolean; locale: string | undefined } {
  const published = !(ct.options.draftAndPublish && scope.status === 'draft');
  const locale = isLocalized(ct) && scope.locale && scope.locale !== '*' ? scope.locale : undefined;
  return { published, locale };
}

/** The rows of `ct` under `alias` (its table name when unaliased) that `scope` names (`scopedRows`). */
export function scopeCondition(ct: ContentType, alias: string, scope: Scope): SqlFragment {
  const { published, locale } = scopedRows(ct, scope);
  const parts = [`${qualified(alias, COLUMNS.publishedAt)} ${published ? 'IS NOT NULL' : 'IS NULL'}`];
  const bindings: SqlFragment['bindings'] = [];
  if (locale !== undefined) {
    parts.push(`${qualified(alias, COLUMNS.locale)} = ?`);
    bindings.push(locale);
  }
  return { sql: parts.join(' AND '), bindings };
}
