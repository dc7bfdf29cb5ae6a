import type { Knex } from 'knex';
import type { ContentType } from '../content-types/types.ts';
import type { Status } from '../query/types.ts';

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
 * Restrict a query on `ct`'s table to the versions `scope` names. Without draft & publish
 * there is only the published row, whatever status is asked for; a locale applies only to
 * localized types (others store `locale` null).
 */
export function inScope(q: Knex.QueryBuilder, ct: ContentType, scope: Scope, alias?: string): Knex.QueryBuilder {
  const col = (c: string): string => (alias ? `${alias}.${c}` : c);
  if (ct.options.draftAndPublish && scope.status === 'draft') q.whereNull(col('published_at'));
  else q.whereNotNull(col('published_at'));
  if (ct.pluginOptions.i18n?.localized && scope.locale && scope.locale !== '*') q.where(col('locale'), scope.locale);
  return q;
}

/** Serialize a timestamp the way Strapi does (ISO 8601 with milliseconds, UTC). */
export const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
