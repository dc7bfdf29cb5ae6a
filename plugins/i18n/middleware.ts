import {
  COLUMNS,
  DRAFT_FIRST,
  type ContentType,
  copyAttributesToLocales,
  type Doc,
  type DocumentContext,
  type DocumentMiddleware,
  type DocumentNext,
  isLocalized,
  type Registry,
  validationError,
} from '../../core/index.ts';
import type { I18nConfig } from './config.ts';
import { checkCopiedRelations } from './copied-relations.ts';

/**
 * Attributes shared by every locale of a document: those marked `i18n.localized: false`,
 * except relations, which Strapi always localizes (a relation marked so is still per locale).
 */
export function sharedAttributes(ct: ContentType): string[] {
  return Object.entries(ct.attributes)
    .filter(([, attr]) => attr.type !== 'relation')
    .filter(
      ([, attr]) => (attr.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n?.localized === false,
    )
    .map(([name]) => name);
}

const pick = (data: Record<string, unknown>, keys: string[]): Record<string, unknown> =>
  Object.fromEntries(keys.filter((k) => Object.hasOwn(data, k)).map((k) => [k, data[k]]));

/**
 * After a write to one locale of a document, copy its shared attributes to the document's
 * other locales in the same publication state (one statement), so a shared attribute is
 * the same in every locale whichever one was edited. The version written is named by the
 * call (its documentId, locale and action), not read from the answer, which `fields` may
 * have trimmed.
 */
async function syncShared(ctx: DocumentContext, doc: Doc | null, locale: string, written?: string[]): Promise<void> {
  const ct = ctx.contentType;
  // an update copies only what it wrote: the other shared attributes are already the same in every locale
  const shared = written ? sharedAttributes(ct).filter((name) => written.includes(name)) : sharedAttributes(ct);
  // the core read whether there are other locales with the row it wrote: none, nothing to copy to
  if (!doc || shared.length === 0 || locale === '*' || ctx.otherLocales === false) return;
  // drafts are written, except by publish; a type without draft & publish has only published rows
  const draft = ct.options.draftAndPublish === true && ctx.action !== 'publish';
  const copy = copyAttributesToLocales(ct.collectionName, shared, doc.documentId as string, locale, !draft);
  await ctx.db.raw(copy.sql, copy.bindings);
}

/** A write names one locale; '*' is refused with Strapi's message (and its empty details). */
const oneLocale = () => validationError('Invalid locale param * provided. Document locales must be strings.');

/**
 * i18n as document-service middleware: every call gets a known locale (the default when
 * omitted; an unknown one is a 400). On localized types, updating a locale a document does
 * not have yet creates that localization, starting from the shared attributes of an
 * existing locale (Strapi leaves them empty: #23659), and every write keeps the shared
 * attributes identical across locales.
 */
export function createI18nMiddleware(config: I18nConfig, registry: Registry): DocumentMiddleware {
  const known = new Set(config.locales.map((l) => l.code));
  const resolve = (locale: string | undefined): string => {
    if (locale === undefined) return config.defaultLocale;
    if (locale === '*' || known.has(locale)) return locale;
    throw validationError(`Invalid locale "${locale}": expected one of ${[...known].join(', ')}`, {
      key: 'locale',
      source: 'query',
    });
  };

  return async (ctx, next) => {
    const locale = resolve(ctx.params.locale);
    ctx.params.locale = locale;
    if (!isLocalized(ctx.contentType)) return next();
    switch (ctx.action) {
      case 'create': {
        if (locale === '*') throw oneLocale();
        const doc = (await next()) as Doc;
        if (ctx.params.documentId) await syncShared(ctx, doc, locale);
        return doc;
      }
      case 'update':
        return updateOrLocalize(ctx, next as DocumentNext<'update'>, registry, locale);
      case 'findOne':
        // Strapi looks '*' up as a locale code, which no version has: 404 (lists take '*')
        return locale === '*' ? null : next();
      case 'publish':
      case 'discardDraft': {
        const doc = (await next()) as Doc | null;
        await syncShared(ctx, doc, locale);
        return doc;
      }
      default:
        return next();
    }
  };
}

/** PUT ?locale=xx: update that localization, or create it when the document exists in other locales only. */
async function updateOrLocalize(
  ctx: DocumentContext<'update'>,
  next: DocumentNext<'update'>,
  registry: Registry,
  locale: string,
): Promise<Doc | null> {
  const p = ctx.params;
  if (locale === '*') throw oneLocale();
  // the core finds the version to update (every locale a document has, has a draft), or none
  const doc = await next();
  if (doc) {
    await syncShared(ctx, doc, locale, Object.keys(p.data ?? {}));
    return doc;
  }
  const table = ctx.contentType.collectionName;
  // prefer a version in the same state (drafts first: every document has one)
  const source = await ctx
    .db(table)
    .first(COLUMNS.data)
    .where(COLUMNS.documentId, p.documentId)
    .orderByRaw(DRAFT_FIRST);
  if (!source) return null;
  const base = pick(source.data, sharedAttributes(ctx.contentType));
  await checkCopiedRelations(ctx.db, registry, ctx.contentType.attributes, base, locale);
  return ctx.documents(ctx.uid).create({
    documentId: p.documentId,
    data: p.data,
    locale: p.locale,
    status: p.status,
    populate: p.populate,
    fields: p.fields,
    raw: p.raw,
    base,
  });
}
