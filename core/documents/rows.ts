import type { Knex } from 'knex';
import { isLocalized, type ContentType } from '../content-types/types.ts';
import type { Status } from '../query/types.ts';
import { quote, type SqlFragment } from '../query/sql.ts';

/** One stored version of a document, as selected from its table. */
export interface Row {
  id: number;
  document_id: string;
  locale: string | null;
  published_at: Date | null;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export const ROW_COLUMNS = ['id', 'document_id', 'locale', 'published_at', 'data', 'created_at', 'updated_at'];

/** Which version of a document a read or write is about. */
export interface Scope {
  status: Status;
  /** null or '*': any locale */
  locale?: string | null;
}

/**
 * The rows of `ct` under `alias` (its table name when unaliased) that `scope` names. Without
 * draft & publish there is only the published row, whatever status is asked for; a locale
 * applies only to localized types (others store `locale` null).
 */
export function scopeCondition(ct: ContentType, alias: string, scope: Scope): SqlFragment {
  const published = `${quote(alias)}."published_at"`;
  const parts = [ct.options.draftAndPublish && scope.status === 'draft' ? `${published} IS NULL` : `${published} IS NOT NULL`];
  const bindings: SqlFragment['bindings'] = [];
  if (isLocalized(ct) && scope.locale && scope.locale !== '*') {
    parts.push(`${quote(alias)}."locale" = ?`);
    bindings.push(scope.locale);
  }
  return { sql: parts.join(' AND '), bindings };
}

/** Restrict to one locale of a localized type (none, null or '*': every locale; other types have no locales). */
export function whereLocale(q: Knex.QueryBuilder, ct: ContentType, locale: string | null | undefined): Knex.QueryBuilder {
  if (isLocalized(ct) && locale && locale !== '*') q.where('locale', locale);
  return q;
}

/** Restrict a query on `ct`'s table (under `alias` if it has one) to the versions `scope` names. */
export function inScope(q: Knex.QueryBuilder, ct: ContentType, scope: Scope, alias?: string): Knex.QueryBuilder {
  const cond = scopeCondition(ct, alias ?? ct.collectionName, scope);
  return q.whereRaw(cond.sql, cond.bindings);
}

/** Serialize a timestamp the way Strapi does (ISO 8601 with milliseconds, UTC). */
export const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
