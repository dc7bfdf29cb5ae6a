/**
 * The shadow CRUD's writes, with Strapi 4's semantics on Strapi 5's document service:
 * - a create is a draft unless `data.publishedAt` is set (then it is published at once);
 * - an update of a published document publishes the updated draft again (Strapi 4 had one row:
 *   what was live changed); `publishedAt: null` unpublishes, a value publishes;
 * - an unknown id on update or delete answers `data: null`, no error;
 * - a delete answers the document as it was, read before it is deleted.
 * Each write is one transaction holding the document's lock (two updates of one document run one
 * after the other); the answer is then read by the planner, in one statement, once committed.
 */
import type { GraphQLFieldResolver } from 'graphql';
import {
  type App,
  applicationError,
  type DocumentApi,
  isAppError,
  notFound,
  resolveFilters,
  type Status,
} from '../../../core/index.ts';
import { FieldFailure } from '../errors.ts';
import type { ExecuteContext } from '../operation.ts';
import { localeOf } from '../plan/args.ts';
import type { RootPlan } from '../plan/root.ts';
import { allow } from '../resolver-context.ts';
import { readRoot } from '../run.ts';
import type { MutationRoot } from '../schema/mutations.ts';
import type { RootField, SchemaModel } from '../schema/model.ts';
import { type Publication, writeInput } from './input.ts';

type Args = Record<string, unknown>;

/** What the write leaves to read back: the document and the version that answers. */
interface Written {
  documentId: string;
  status: Status;
}

/** The version a document answers in: published if it has one (Strapi 4's one row), else its draft. */
async function versionOf(docs: DocumentApi, documentId: string, locale?: string): Promise<Status | null> {
  if (await docs.findOne({ documentId, status: 'published', locale, fields: [] })) return 'published';
  return (await docs.findOne({ documentId, status: 'draft', locale, fields: [] })) ? 'draft' : null;
}

/** A single type's one document (any version, any locale). */
async function singleId(docs: DocumentApi): Promise<string | undefined> {
  return (await docs.findFirst({ status: 'draft', locale: '*', fields: [] }))?.documentId as string | undefined;
}

/**
 * The version a write leaves: Strapi 5's `status` argument in the flat shape (PUBLISHED, its
 * default, publishes), else Strapi 4's rule from `data.publishedAt` and what was there before.
 */
function versionAfter(flat: boolean, args: Args, dp: boolean, publication: Publication, before: Status | null) {
  if (flat) return dp && args.status === 'DRAFT' ? 'draft' : 'published';
  return statusAfter(dp, publication, before);
}

function statusAfter(dp: boolean, publication: Publication, before: Status | null): Status {
  if (!dp || publication === 'set') return 'published';
  if (publication === 'null') return 'draft';
  return before ?? 'draft';
}

/** `model`: the built schema's (known once the build that needs this resolver is done). */
export function mutationResolver(app: App, modelOf: () => SchemaModel) {
  const { registry } = app;
  /** Strapi 5's write (mutations-flat.ts): addressed by documentId, its version given by `status` */
  const flat = (root: MutationRoot): boolean => root.shape === 'flat';

  async function create(root: MutationRoot, args: Args, locale?: string): Promise<Written> {
    const dp = registry.contentType(root.uid).options.draftAndPublish === true;
    const { data, publication } = writeInput(registry, modelOf(), root.uid, args.data);
    const status = versionAfter(flat(root), args, dp, publication, null);
    const documentId = root.kind === 'createLocalization' && typeof args.id === 'string' ? args.id : undefined;
    const doc = await app.documents.transaction(async (documents, trx) => {
      const docs = documents(root.uid);
      if (root.kind === 'createLocalization') {
        // Strapi 4's answers (i18n's `createLocalization`): the document must exist, the locale be new
        if (!documentId) throw notFound();
        await app.documents.lock(trx, root.uid, documentId);
        const filters = resolveFilters(registry, root.uid, { documentId: { $eq: documentId } });
        if (!(await docs.findFirst({ filters, status: 'draft', locale: '*', fields: [] }))) throw notFound();
        if (await docs.findOne({ documentId, status: 'draft', locale, fields: [] })) {
          throw applicationError('locale is already used');
        }
      }
      return docs.create({ data, locale, status, fields: [], ...(documentId ? { documentId } : {}) });
    });
    return { documentId: doc.documentId as string, status };
  }

  async function update(root: MutationRoot, id: string | undefined, args: Args, locale?: string) {
    const ct = registry.contentType(root.uid);
    const dp = ct.options.draftAndPublish === true;
    const single = ct.kind === 'singleType';
    const { data, publication } = writeInput(registry, modelOf(), root.uid, args.data);
    return app.documents.transaction(async (documents, trx): Promise<Written | null> => {
      const docs = documents(root.uid);
      await app.documents.lock(trx, root.uid, single ? undefined : id);
      const documentId = single ? await singleId(docs) : id;
      if (!documentId) {
        // a single type's first update creates it, as Strapi 4's (and REST's PUT) does
        if (!single) return null;
        const status = versionAfter(flat(root), args, dp, publication, null);
        const doc = await docs.create({ data, locale, status, fields: [] });
        return { documentId: doc.documentId as string, status };
      }
      const before = await versionOf(docs, documentId, locale);
      if (!before) return null;
      const status = versionAfter(flat(root), args, dp, publication, before);
      await docs.update({ documentId, data, locale, status, fields: [] });
      // Strapi 4's `publishedAt: null` unpublishes; Strapi 5's `status: DRAFT` only writes the draft
      if (!flat(root) && dp && before === 'published' && status === 'draft')
        await docs.unpublish({ documentId, locale, fields: [] });
      return { documentId, status };
    });
  }

  /** Strapi 5's delete: `{ documentId }`, whether or not there was such a document (as Strapi 5 answers). */
  async function deleteFlat(root: MutationRoot, id: string | undefined, locale?: string) {
    const docs = app.documents(root.uid);
    const documentId = registry.contentType(root.uid).kind === 'singleType' ? await singleId(docs) : id;
    if (documentId) await docs.delete({ documentId, locale });
    return { documentId: documentId ?? id ?? null };
  }

  return (root: MutationRoot): GraphQLFieldResolver<unknown, unknown> =>
    async (_source, args: Args, context, info) => {
      const ctx = context as ExecuteContext;
      try {
        allow(ctx, root.action);
        const locale = localeOf(args.locale);
        // Strapi 4 addresses a document by `id`, Strapi 5 by `documentId`
        const given = flat(root) ? args.documentId : args.id;
        const id = typeof given === 'string' ? given : undefined;
        if (flat(root) && root.kind === 'delete') return await deleteFlat(root, id, locale);
        // planned before writing: a selection that cannot be planned (a bad argument) writes nothing
        const read: RootField = { uid: root.uid, kind: 'findOne', action: root.action };
        const plan: RootPlan = ctx.plan(info, read);
        plan.locale = locale;
        // an unknown document reads with no id: `data: null`, without a statement
        const answer = async (w: Written | null): Promise<unknown> =>
          JSON.parse(await readRoot(app, { ...plan, id: w?.documentId ?? null, status: w?.status ?? plan.status }));
        if (root.kind === 'create' || root.kind === 'createLocalization') {
          return await answer(await create(root, args, locale));
        }
        if (root.kind === 'update') return await answer(await update(root, id, args, locale));
        // delete: the answer is the document as it was
        const docs = app.documents(root.uid);
        const single = registry.contentType(root.uid).kind === 'singleType';
        const documentId = single ? await singleId(docs) : id;
        const status = documentId ? await versionOf(docs, documentId, locale) : null;
        if (!documentId || !status) return await answer(null);
        const text = await readRoot(app, { ...plan, id: documentId, status });
        await docs.delete({ documentId, locale });
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw isAppError(err) ? err : new FieldFailure(err);
      }
    };
}
