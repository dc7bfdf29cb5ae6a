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
 * The rows of `ct` under `alias` (its table name when unaliased) that `scope` names. Without
 * draft & publish there is only the published row, whatever status is asked for; a locale
 * applies only to localized types (others store `locale` null).
 */
export function scopeCondition(ct: ContentType, alias: string, scope: Scope): SqlFragment {
  const published = qualified(alias, COLUMNS.publishedAt);
  const drafts = ct.options.draftAndPublish && scope.status === 'draft';
  const parts = [drafts ? `${published} IS NULL` : `${published} IS NOT NULL`];
  const bindings: SqlFragment['bindings'] = [];
  if (isLocalized(ct) && scope.locale && scope.locale !== '*') {
    parts.push(`${qualified(alias, COLUMNS.locale)} = ?`);
    bindings.push(scope.locale);
  }
  return { sql: parts.join(' AND '), bindings };
}
