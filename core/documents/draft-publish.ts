import type { Doc } from './serialize.ts';
import type { DocumentMiddleware } from './types.ts';

/**
 * Strapi 5's draft & publish, as document-service middleware so every API inherits it: for a
 * content-type with `draftAndPublish`, a write always goes to the draft; asking for
 * `status: 'published'` then publishes that draft (the published version is a copy with its
 * own id). Without draft & publish the core keeps one row, always published.
 */
export const draftAndPublish: DocumentMiddleware = async (ctx, next) => {
  if (!ctx.contentType.options.draftAndPublish || (ctx.action !== 'create' && ctx.action !== 'update')) return next();
  // this call's own copy (the service's): rewriting it leaves the caller's params as they were
  const params = ctx.params;
  const wanted = params.status ?? 'draft';
  params.status = 'draft';
  const { populate, fields } = params;
  // a draft about to be published is not answered: read back only its id, not the caller's whole shape
  if (wanted === 'published') {
    params.populate = undefined;
    params.fields = [];
  }
  const draft = (await next()) as Doc | null;
  if (!draft || wanted === 'draft') return draft;
  return ctx.documents(ctx.uid).publish({
    documentId: draft.documentId as string,
    // the locale the write went to (inner middleware resolved it on these params)
    locale: params.locale,
    // what the caller asked to see, so the published version answers in that shape
    populate,
    fields,
    raw: params.raw,
  });
};
