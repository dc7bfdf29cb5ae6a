import type { Knex } from 'knex';
import { ROW_COLUMNS } from '../query/sql.ts';
import type { Row } from './rows.ts';

/** What a write returns of the row it wrote: what a read selects, and the version's `ctid`. */
export const RETURNED = [...ROW_COLUMNS, 'ctid'];

/** A row from `RETURNING`: its bigint id as the number a read gives (pg hands bigints over as text). */
export const returned = <R extends Row>(row: R): R => ({ ...row, id: Number(row.id) });

/** The draft `d.id` still as it was written (`?`: table, id, ctid): no statement changed it since. */
export const UNCHANGED = 'EXISTS (SELECT 1 FROM ?? AS "d" WHERE "d"."id" = ? AND "d"."ctid" = ?::tid)';

/** Whether the row's document has a published version in the row's locale (`?`: table, table, table). */
export const VERSION_EXISTS = `EXISTS (SELECT 1 FROM ?? AS "v" WHERE "v"."document_id" = ??."document_id"
  AND "v"."locale" IS NOT DISTINCT FROM ??."locale" AND "v"."published_at" IS NOT NULL)`;
/** Whether the row's document has versions in other locales (`?`: table, table, table). */
export const LOCALE_EXISTS = `EXISTS (SELECT 1 FROM ?? AS "v" WHERE "v"."document_id" = ??."document_id"
  AND "v"."locale" <> ??."locale")`;

/** A row as a write's `RETURNING` gives it: the columns a read selects, and where the version lies. */
export type WrittenRow = Row & { ctid: string };

/** The draft a write left, as the publish that follows it in the same transaction may take it. */
export interface WrittenDraft {
  uid: string;
  row: WrittenRow;
  /** whether this locale of the document had a published version when the draft was written */
  published: boolean;
  /** whether the document has versions in other locales (undefined: not known) */
  otherLocales?: boolean;
}

/**
 * What a `PUT` that publishes hands from its update to its publish (draft-publish.ts): the draft it
 * wrote, so the publish need not read it again. Kept per transaction, and only until the next
 * write action through the service; a write in between by other means (a middleware's own SQL)
 * is caught where the draft is used: the publish checks the row's `ctid` is still the one written,
 * the physical version, which any later update of the row in this transaction replaces.
 */
export interface WrittenDrafts {
  set(conn: Knex, draft: WrittenDraft): void;
  /** forget what `conn` wrote (another write action starts on it) */
  clear(conn: Knex): void;
  /** the draft `conn` just wrote of `uid`'s document `documentId` in `locale` (null: not localized), once */
  take(conn: Knex, uid: string, documentId: string, locale: string | null): WrittenDraft | undefined;
}

export function createWrittenDrafts(): WrittenDrafts {
  const last = new WeakMap<Knex, WrittenDraft>();
  return {
    set: (conn, draft) => last.set(conn, draft),
    clear: (conn) => last.delete(conn),
    take(conn, uid, documentId, locale) {
      const draft = last.get(conn);
      last.delete(conn);
      const row = draft?.row;
      return row && draft.uid === uid && row.document_id === documentId && row.locale === locale ? draft : undefined;
    },
  };
}
