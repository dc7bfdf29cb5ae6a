import type { Knex } from 'knex';
import {
  COLUMNS,
  allowedTypesIssue,
  type App,
  type AppError,
  type ContentType,
  type DocumentApi,
  fieldErrors,
  type MediaAttribute,
  validationError,
} from '../../core/index.ts';

/**
 * Where new uploads are attached: a media attribute of one document. `refId` is a row id
 * (Strapi 5's form: it names one version) or a documentId; `locale` (the request's `?locale=`)
 * picks the localization a documentId means, as on `PUT /api/:type/:documentId`.
 */
export interface Link {
  ref: string;
  refId: string;
  field: string;
  locale?: string;
}

/** A link checked against the registry and the database, before any byte is stored. */
export interface LinkTarget {
  ct: ContentType;
  attr: MediaAttribute;
  field: string;
  documentId: string;
  /** the row's locale (row id), the one asked for, or undefined: the type's default (i18n decides) */
  locale?: string;
  /** the version a row id named; undefined for a documentId: the versions the document has */
  status?: 'draft' | 'published';
}

const ROW_ID = /^\d{1,15}$/;

const notFoundIn = (link: Link): AppError => {
  const where = link.locale ? `${link.ref} (locale ${link.locale})` : link.ref;
  return validationError(`Document with id "${link.refId}" not found in ${where}`, { key: 'refId' });
};

/**
 * Which versions a link writes, the way a Strapi 5 user expects it:
 * - a documentId is `PUT /api/:type/:documentId?locale=` restricted to the media attribute:
 *   the draft of that locale gets the files and, when that locale is published, the published
 *   version is published again from the draft (with draft & publish the published version is
 *   always a copy of the draft, never edited alone). A document that was never published stays
 *   a draft; a locale the document lacks is an error, never a new localization.
 * - a row id names one version (Strapi 5 links that row): a draft row links the draft only,
 *   leaving the published version as it is; a published row links its draft and publishes it.
 * Attributes shared across locales (`i18n.localized: false`) follow to the other locales, and
 * the write is validated (allowedTypes, existence) by the document service, like any update.
 */
export function createLinker(app: App) {
  /** Check a link before anything is stored: the type, the media attribute, the document, the file types. */
  async function check(link: Link, mimes: string[]): Promise<LinkTarget> {
    if (!app.registry.hasContentType(link.ref)) {
      throw validationError(`Invalid ref: ${link.ref} is not a content-type`, { key: 'ref' });
    }
    const ct = app.registry.contentType(link.ref);
    const attr = Object.hasOwn(ct.attributes, link.field) ? ct.attributes[link.field] : undefined;
    if (attr?.type !== 'media') {
      throw validationError(`Invalid field: ${link.field} is not a media attribute of ${link.ref}`, { key: 'field' });
    }
    const target: LinkTarget = { ct, attr, field: link.field, documentId: link.refId, locale: link.locale };
    if (ROW_ID.test(link.refId)) {
      const row = await app
        .db(ct.collectionName)
        .first(COLUMNS.documentId, COLUMNS.locale, COLUMNS.publishedAt)
        .where('id', Number(link.refId));
      if (!row) throw notFoundIn(link);
      target.documentId = row.document_id;
      target.locale = row.locale ?? undefined;
      if (ct.options.draftAndPublish) target.status = row.published_at === null ? 'draft' : 'published';
    } else {
      // through the document service: i18n resolves the locale (an unknown one is a 400)
      const found = await app
        .documents(ct.uid)
        .findOne({ documentId: link.refId, locale: link.locale, status: 'draft', fields: [] });
      if (!found) throw notFoundIn(link);
    }
    const refused = allowedTypesIssue(attr, mimes, [link.field]);
    if (refused) throw fieldErrors([refused]);
    return target;
  }

  /**
   * Add `ids` to the target's media attribute, inside the upload's transaction. A read-modify-write
   * that loses nothing to a concurrent one: the document's write lock (the one every write to it
   * takes first, so a link queues with PUTs in one order and cannot deadlock with them) is held
   * before the current value is read; parallel uploads to one gallery each append to what the
   * last wrote.
   */
  async function attach(
    documents: (uid: string) => DocumentApi,
    trx: Knex.Transaction,
    target: LinkTarget,
    ids: number[],
  ): Promise<void> {
    const { ct, attr, field, documentId } = target;
    await app.documents.lock(trx, ct.uid, documentId);
    const docs = documents(ct.uid);
    const draft = await docs.findOne({
      documentId,
      locale: target.locale,
      status: 'draft',
      fields: ['locale'],
      populate: { [field]: { fields: [] } },
    });
    if (!draft) throw notFoundIn({ ref: ct.uid, refId: documentId, field, locale: target.locale });
    const locale = typeof draft.locale === 'string' ? draft.locale : undefined;
    const held = draft[field];
    const current = (Array.isArray(held) ? held : held ? [held] : []).map((f) => Number((f as { id: unknown }).id));
    const value = attr.multiple ? [...new Set([...current, ...ids])] : ids[ids.length - 1];
    const named = target.status ?? ((await hasPublished(trx, ct, documentId, locale)) ? 'published' : 'draft');
    const status = ct.options.draftAndPublish === true ? named : 'draft';
    await docs.update({ documentId, locale, status, data: { [field]: value }, fields: [] });
  }

  return { check, attach };
}

export type Linker = ReturnType<typeof createLinker>;

/** Whether this locale of the document is published (read after the lock: a publish may just have committed). */
async function hasPublished(trx: Knex, ct: ContentType, documentId: string, locale?: string): Promise<boolean> {
  const q = trx(ct.collectionName)
    .first(COLUMNS.id)
    .where(COLUMNS.documentId, documentId)
    .whereNotNull(COLUMNS.publishedAt);
  if (locale !== undefined) q.where(COLUMNS.locale, locale);
  return (await q) !== undefined;
}
