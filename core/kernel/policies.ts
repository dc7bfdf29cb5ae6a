/**
 * Policies, as Strapi runs them on REST routes and GraphQL resolvers: a list of items, each a
 * registered name (`global::is-owner`, `api::article.is-owner`, `plugin::users-permissions.x`),
 * `{ name, config }`, or an inline function. Each is called in order with the request's policy
 * context; `true` or `undefined` lets the request through, anything else refuses it (PolicyError).
 * Items are resolved once (when routes or the schema are built), so a misspelled name fails the
 * start, not a request.
 */
import { configurationError } from '../errors.ts';

/** What a policy sees: Strapi's policy context (`is('koa')` on REST, `is('graphql')` on GraphQL). */
export interface PolicyContext {
  is(type: string): boolean;
  readonly type: string;
  [key: string]: unknown;
}

/** What a policy gets as its last argument; `strapi` is the app's Strapi-compatible facade. */
export interface PolicyDeps {
  strapi: unknown;
  app: unknown;
}

/**
 * A policy. Registered ones are called `(context, config, { strapi })`. An inline function is
 * called the same way with the deps as its config too, so the brief's `(context, { strapi })`
 * and Strapi's `(context, config, { strapi })` both work.
 */
export type PolicyHandler = (context: PolicyContext, config: unknown, deps: PolicyDeps) => unknown;

export type PolicyItem = string | { name: string; config?: unknown } | PolicyHandler;

export interface ResolvedPolicy {
  name: string;
  handler: PolicyHandler;
  config: unknown;
  inline: boolean;
}

/** Strapi's `createPolicyContext(type, fields)`: the fields, plus `type` and `is(type)`. */
export function createPolicyContext<T extends object>(type: string, fields: T): PolicyContext & T {
  const base = { is: (t: string) => t === type, type };
  // getters of `fields` stay getters (the GraphQL context's are)
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(fields)) as unknown as PolicyContext & T;
}

/**
 * Resolve a list of policy items with `lookup` (the app's registry; it throws for an unknown
 * name). `where` names the route or field in the error a malformed item gets.
 */
export function resolvePolicies(
  items: unknown,
  lookup: (name: string) => PolicyHandler,
  where: string,
): ResolvedPolicy[] {
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items)) throw configurationError(`${where}: policies must be an array`);
  return items.map((item, i) => {
    if (typeof item === 'function') {
      return { name: item.name || `inline #${i}`, handler: item as PolicyHandler, config: undefined, inline: true };
    }
    if (typeof item === 'string') return { name: item, handler: lookup(item), config: {}, inline: false };
    if (typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string') {
      const { name, config } = item as { name: string; config?: unknown };
      return { name, handler: lookup(name), config: config ?? {}, inline: false };
    }
    throw configurationError(`${where}: policy #${i} must be a name, { name, config } or a function`);
  });
}

/** Run resolved policies in order; false at the first that does not answer `true` or `undefined`. */
export async function policiesPass(
  policies: readonly ResolvedPolicy[],
  context: PolicyContext,
  deps: PolicyDeps,
): Promise<boolean> {
  for (const p of policies) {
    const result = await p.handler(context, p.inline ? deps : p.config, deps);
    if (result !== true && result !== undefined) return false;
  }
  return true;
}
