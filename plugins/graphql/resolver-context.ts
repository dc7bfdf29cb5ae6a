/**
 * What `execute` gives every resolver as its context: the request's auth and its HTTP context
 * (absent when a request is run without one, e.g. from a test), for the operations that are not
 * shadow CRUD reads (users-permissions' and upload's), which reuse REST's handlers and services.
 * And the few things those operations' resolvers all do with it.
 */
import type { GraphQLFieldResolver } from 'graphql';
import {
  configurationError,
  forbidden,
  isPlainObject,
  type RequestAuth,
  type RequestContext,
} from '../../core/index.ts';

export interface ResolverContext {
  auth: RequestAuth;
  http: RequestContext | undefined;
}

/** The context's auth, once it allows `action` (FORBIDDEN otherwise, before anything runs). */
export function allow(context: unknown, action: string): RequestAuth {
  const { auth } = context as ResolverContext;
  if (!auth.allows(action)) throw forbidden();
  return auth;
}

/** The context, with the HTTP request an operation calling REST's handlers needs. */
export function withHttp<C extends ResolverContext>(context: unknown): C & { http: RequestContext } {
  const ctx = context as C;
  if (!ctx.http) throw configurationError('GraphQL: this operation needs the HTTP request');
  return ctx as C & { http: RequestContext };
}

/**
 * A field of `execute`'s results, by the key it was answered under (reads build aliased
 * objects); an object an app's resolver returned has no aliases: by the field's name then.
 */
export const byResponseKey: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) => {
  if (source === null || typeof source !== 'object') return undefined;
  const record = source as Record<string, unknown>;
  const key = info.path.key as string;
  return key in record ? record[key] : record[info.fieldName];
};

/** Fields of plain objects (a handler's answer, not the read's aliased JSON): read by field name. */
export const byName: GraphQLFieldResolver<unknown, unknown> = (source, _args, _ctx, info) =>
  isPlainObject(source) ? (source as Record<string, unknown>)[info.fieldName] : undefined;

/**
 * An input object argument as a plain object. graphql's argument objects have no prototype:
 * copied, REST's checks take them for plain objects. Anything else: an empty object.
 */
export const plainInput = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...value } : {};
