/**
 * `context.read(info, { uid, filters })`: what an app's resolver calls to answer its field with
 * Vellum's own read, for the caller. The field's selection (and its `filters`, `sort`,
 * `pagination`, `publicationState` arguments, when the field declares them) is planned as a
 * shadow CRUD root field would be, with the resolver's `filters` and-ed in: one statement, the
 * caller's rights applied to the root and to every populated relation, the value shaped for the
 * selection (nested custom fields included). The field's type says what is read: a
 * `…EntityResponseCollection` lists, a `…EntityResponse` reads one document (the flat shape:
 * `[Article]` lists, `ArticleEntityResponseCollection` is a connection, `Article` one document).
 */
import { getNamedType, getNullableType, type GraphQLResolveInfo, isListType } from 'graphql';
import { type App, configurationError, type RequestContext, resolveFilters } from '../../core/index.ts';
import { entityCollection, entityResponse } from './naming.ts';
import { readRoot } from './run.ts';
import { readAction, type RootField, type SchemaModel } from './schema/model.ts';
import type { ExecuteContext } from './operation.ts';

export interface ReadOptions {
  /** the content-type read (`api::article.article`) */
  uid: string;
  /** REST filters (`{ author: { slug: { $eq: 'x' } } }`), and-ed with the field's own */
  filters?: Record<string, unknown>;
  /** for a `…EntityResponse` field: the document read */
  documentId?: string;
}

/** What every resolver `execute` calls gets as its context. */
export interface GraphqlContext {
  /** Strapi's `context.state` (the request's, with `auth`) */
  state: Record<string, unknown>;
  /** Strapi's `context.koaContext`: the HTTP request (absent when run without one) */
  koaContext: RequestContext | undefined;
  /** answer the field `info` resolves with Vellum's read, for the caller */
  read(info: GraphQLResolveInfo, options: ReadOptions): Promise<unknown>;
}

export async function readFor(
  app: App,
  model: SchemaModel,
  context: ExecuteContext,
  info: GraphQLResolveInfo,
  options: ReadOptions,
): Promise<unknown> {
  const { uid } = options;
  // its documents' type: `Article` (the attributes type in the entity shape, the document in the flat one)
  if (!app.registry.hasContentType(uid) || model.roles.get(model.typeOf(uid) ?? '')?.kind !== 'document') {
    throw configurationError(`GraphQL read: ${uid} is not a content-type the schema serves`);
  }
  const returned = getNamedType(info.returnType).name;
  const typeName = model.typeOf(uid);
  const single = app.registry.contentType(uid).kind === 'singleType';
  const flat = model.shape === 'flat';
  const rootOf = (kind: RootField['kind']): RootField => ({
    uid,
    kind,
    action: readAction(uid, kind === 'findOne' ? 'findOne' : 'find'),
  });
  // a list (`[Article]`, flat), a collection (`ArticleEntityResponseCollection`: Strapi 4's list,
  // Strapi 5's connection) or one document (`ArticleEntityResponse`; flat, `Article`)
  let root: RootField | undefined;
  if (flat && returned === typeName && isListType(getNullableType(info.returnType))) root = rootOf('find');
  else if (returned === entityCollection(typeName)) root = rootOf(flat ? 'connection' : 'find');
  else if (returned === (flat ? typeName : entityResponse(typeName))) root = rootOf(single ? 'single' : 'findOne');
  if (!root || (single && root.kind !== 'single')) {
    throw configurationError(
      `GraphQL read: ${info.parentType.name}.${info.fieldName} returns ${returned}, not a ${typeName} response`,
    );
  }
  const filters = options.filters ? resolveFilters(app.registry, uid, options.filters) : undefined;
  const plan = context.plan(info, root, { filters, id: options.documentId });
  return JSON.parse(await readRoot(app, plan)) as unknown;
}
