import type { Knex } from 'knex';
import { validationError } from '../../core/errors.ts';
import type { ContentType } from '../../core/content-types/types.ts';
import type { Doc } from '../../core/documents/serialize.ts';
import type { CreateParams, DocumentContext, DocumentMiddleware, UpdateParams } from '../../core/documents/types.ts';
import type { I18nConfig } from './config.ts';

const localized = (ct: ContentType): boolean => ct.pluginOptions.i18n?.localized === true;

/** Attributes shared by every locale of a document: those marked `i18n.localized: false`. */
export function sharedAttributes(ct: ContentType): string[] {
  return Object.entries(ct.attributes)
    .filter(([, attr]) => (attr.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized === false)
    .map(([name]) => name);
}

const pick = (data: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => Object.hasOwn(data, k)).map((k) => [k, data[k]]));

/**
 * After a write to one locale of a document, copy its shared attributes to the document's
 * other locales in the same publication state (one statement), so a shared attribute is
 * the same in every locale whichever one was edited.
 */
async function syncShared(db: Knex, ct: ContentType, doc: Doc | null): Promise<void> {
  const shared = sharedAttributes(ct);
  if (!doc || shared.length === 0 || typeof doc.locale !== 'string') return;
  const draft = doc.publishedAt === null;
  const row = await db(ct.collectionName).first('data').where({ document_id: doc.documentId, locale: doc.locale })
    .modify((q) => (draft ? q.whereNull('published_at') : q.whereNotNull('published_at')));
  if (!row) return;
  await db(ct.collectionName).where('document_id', doc.documentId as string).whereNot('locale', doc.locale)
    .modify((q) => (draft ? q.whereNull('published_at') : q.whereNotNull('published_at')))
    .update({ data: db.raw('data || ?::jsonb', [JSON.stringify(pick(row.data, shared))]) });
}

/**
 * i18n as document-service middleware: every call gets a known locale (the default when
 * omitted; an unknown one is a 400). On localized types, updating a locale a document does
 * not have yet creates that localization, starting from the shared attributes of an
 * existing locale (Strapi leaves them empty: #23659), and every write keeps the shared
 * attributes identical across locales.
 */
export function createI18nMiddleware(config: I18nConfig): DocumentMiddleware {
  const known = new Set(config.locales.map((l) => l.code));
  const resolve = (locale: string | undefined): string => {
    if (locale === undefined) return config.defaultLocale;
    if (locale === '*' || known.has(locale)) return locale;
    throw validationError(`Invalid locale "${locale}": expected one of ${[...known].join(', ')}`, { key: 'locale', source: 'query' });
  };

  return async (ctx: DocumentContext, next) => {
    const params = ctx.params as { locale?: string };
    params.locale = resolve(params.locale);
    if (!localized(ctx.contentType)) return next();
    switch (ctx.action) {
      case 'create': {
        if (params.locale === '*') throw validationError('A document is created in one locale', { key: 'locale' });
        const doc = (await next()) as Doc;
        if ((ctx.params as CreateParams).documentId) await syncShared(ctx.db, ctx.contentType, doc);
        return doc;
      }
      case 'update':
        return updateOrLocalize(ctx as DocumentContext<'update'>, next);
      case 'publish':
      case 'discardDraft': {
        const doc = (await next()) as Doc | null;
        await syncShared(ctx.db, ctx.contentType, doc);
        return doc;
      }
      default:
        return next();
    }
  };
}

/** PUT ?locale=xx: update that localization, or create it when the document exists in other locales only. */
async function updateOrLocalize(ctx: DocumentContext<'update'>, next: () => Promise<unknown>): Promise<unknown> {
  const p = ctx.params as UpdateParams & { locale: string };
  if (p.locale === '*') throw validationError('A document is updated in one locale at a time', { key: 'locale' });
  const table = ctx.contentType.collectionName;
  const mine = await ctx.db(table).first('id').where({ document_id: p.documentId, locale: p.locale });
  if (mine) {
    const doc = (await next()) as Doc | null;
    await syncShared(ctx.db, ctx.contentType, doc);
    return doc;
  }
  // prefer a version in the same state (drafts first: every document has one)
  const source = await ctx.db(table).first('data').where('document_id', p.documentId)
    .orderByRaw('(published_at IS NULL) DESC, id');
  if (!source) return null;
  return ctx.documents(ctx.uid).create({
    documentId: p.documentId,
    data: p.data,
    locale: p.locale,
    status: p.status,
    populate: p.populate,
    fields: p.fields,
    redact: p.redact,
    base: pick(source.data, sharedAttributes(ctx.contentType)),
  });
}
