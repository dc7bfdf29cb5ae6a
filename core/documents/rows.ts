import type { Knex } from 'knex';
import { isLocalized, type ContentType } from '../content-types/types.ts';
import { scopeCondition, type Scope } from '../query/scope-sql.ts';
import { COLUMNS } from '../query/sql.ts';

/** What each column holds, by COLUMNS' keys. */
interface RowValues {
  id: number;
  documentId: string;
  locale: string | null;
  publishedAt: Date | null;
  data: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One stored version of a document, as selected from its table: keyed by the column names in
 * COLUMNS (`row.document_id`), so renaming a column there breaks every reader at compile time.
 */
export type Row = { [K in keyof typeof COLUMNS as (typeof COLUMNS)[K]]: RowValues[K] };

/** Restrict to one locale of a localized type (none, null or '*': every locale; other types have no locales). */
export function whereLocale(
  q: Knex.QueryBuilder,
  ct: ContentType,
  locale: string | null | undefined,
): Knex.QueryBuilder {
  if (isLocalized(ct) && locale && locale !== '*') q.where(COLUMNS.locale, locale);
  return q;
}

/** Restrict a query on `ct`'s table (under `alias` if it has one) to the versions `scope` names. */
export function inScope(q: Knex.QueryBuilder, ct: ContentType, scope: Scope, alias?: string): Knex.QueryBuilder {
  const cond = scopeCondition(ct, alias ?? ct.collectionName, scope);
  return q.whereRaw(cond.sql, cond.bindings);
}

/** Serialize a timestamp the way Strapi does (ISO 8601 with milliseconds, UTC). */
export const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());
