/**
 * The app's `resolversConfig` applied to the schema's resolvers, in Strapi's order per field:
 * auth, then the middlewares as declared, then the policies, then the resolver
 * (`content-api/wrap-resolvers.js`). Auth runs on every Query and Mutation field the app
 * defines (no config: any authenticated caller, never an anonymous one) and on any field whose
 * config has `auth`; Vellum's own fields check the caller's rights themselves, and an `auth`
 * config on one of them replaces that check for its own action only (nested reads keep theirs).
 * Middlewares and policies are resolved here, once, so a misspelled name fails the start.
 */
import type { GraphQLFieldResolver, GraphQLSchema } from 'graphql';
import { GraphQLError, isObjectType } from 'graphql';
import { FieldFailure } from '../errors.ts';
import {
  configurationError,
  createPolicyContext,
  forbidden,
  isAppError,
  isPlainObject,
  type MiddlewareFactory,
  resolveMiddlewares,
  type PolicyDeps,
  type PolicyHandler,
  policiesPass,
  type RequestAuth,
  resolvePolicies,
} from '../../../core/index.ts';
import { SOURCE_KEY } from '../plan/layout.ts';
import { byResponseKey, type ResolverContext } from '../resolver-context.ts';
import type { ResolverConfig, ResolverMiddleware } from './service.ts';

type Resolver = GraphQLFieldResolver<unknown, unknown>;

export interface WrapDeps {
  policy(name: string): PolicyHandler;
  middleware(name: string): MiddlewareFactory;
  deps: PolicyDeps;
}

export interface WrapFields {
  /** Query and Mutation fields Vellum answers (they check the caller's rights themselves) */
  internal: ReadonlySet<string>;
  /** the permission action of each shadow CRUD root and write */
  actions: ReadonlyMap<string, string>;
  /** fields whose resolver is the app's: they get the object read for them as their parent */
  custom: ReadonlySet<string>;
}

const ROOT_TYPES = new Set(['Query', 'Mutation']);

/** Who passes an auth check without a scope (Strapi's strategies' `verify`): anyone authenticated. */
function authenticated(auth: RequestAuth): boolean {
  if (auth.strategy === 'open' || auth.strategy === 'users-permissions') return true;
  // API tokens: only a full-access one passes a check that names no scope
  return auth.strategy === 'api-token' && auth.credentials?.type === 'full-access';
}

/** The caller's rights with one action granted (an `auth` config decided it). */
const grant = (auth: RequestAuth, action: string): RequestAuth => ({
  ...auth,
  allows: (a) => a === action || auth.allows(a),
});

function checkAuth(path: string, auth: unknown): ResolverConfig['auth'] {
  if (auth === undefined || auth === false) return auth;
  const scope = isPlainObject(auth) ? auth.scope : undefined;
  if (Array.isArray(scope) && scope.every((s) => typeof s === 'string')) return { scope };
  throw configurationError(`GraphQL: resolversConfig['${path}'].auth must be false or { scope: string[] }`);
}

/** What a middleware factory that made nothing stands for: the next step, called as given. */
const passThrough: ResolverMiddleware = (next, parent, args, context, info) => next(parent, args, context, info);

/** What the app's code gets as a field's parent: the object read for it, when the planner read one. */
const sourceOf = (parent: unknown): unknown =>
  parent !== null && typeof parent === 'object' && SOURCE_KEY in parent
    ? (parent as Record<string, unknown>)[SOURCE_KEY]
    : parent;

/**
 * Wrap the schema's resolvers. Returns the fields wrapped (the planner sends them through
 * `execute`) and the configs naming no field (Strapi ignores them; a disabled field's config is one).
 */
export function wrapResolvers(
  schema: GraphQLSchema,
  fields: WrapFields,
  configs: Record<string, ResolverConfig>,
  deps: WrapDeps,
): { wrapped: Set<string>; unknown: string[] } {
  const wrapped = new Set<string>();
  const known = new Set<string>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const path = `${type.name}.${field.name}`;
      known.add(path);
      const given: unknown = Object.hasOwn(configs, path) ? configs[path] : undefined;
      const appRoot = ROOT_TYPES.has(type.name) && !fields.internal.has(path);
      const custom = fields.custom.has(path);
      if (given === undefined && !appRoot && !custom) continue;
      if (given !== undefined && !isPlainObject(given))
        throw configurationError(`GraphQL: resolversConfig['${path}'] must be an object`);
      const config = given as ResolverConfig | undefined;
      const auth = checkAuth(path, config?.auth);
      const where = `GraphQL resolversConfig['${path}']`;
      const middlewares = resolveMiddlewares<ResolverMiddleware>(
        config?.middlewares,
        deps.middleware,
        deps.deps,
        where,
        passThrough,
      );
      const policies = resolvePolicies(config?.policies, deps.policy, where);
      const base: Resolver = field.resolve ?? byResponseKey;
      const action = fields.actions.get(path);
      field.resolve = async (parent, args, context, info) => {
        const ctx = context as ResolverContext;
        let caller = ctx.auth;
        if (auth === false) {
          if (action) caller = grant(caller, action);
        } else if (auth) {
          if (!auth.scope.every((a) => caller.allows(a))) throw forbidden();
          if (action) caller = grant(caller, action);
        } else if (appRoot && !authenticated(caller)) {
          throw forbidden();
        }
        const inner = caller === ctx.auth ? context : { ...ctx, auth: caller };
        const source = sourceOf(parent);
        // Vellum's resolvers read the aliased object; the app's code gets the one read for it
        const last: Resolver = custom ? base : (p, a, c, i) => base(p === source ? parent : p, a, c, i);
        const guarded: Resolver =
          policies.length === 0
            ? last
            : async (p, a, c, i) => {
                const { http } = c as ResolverContext;
                const members = { parent: p, args: a, context: c, info: i, state: http?.state, http };
                const pc = createPolicyContext('graphql', members);
                if (!(await policiesPass(policies, pc, deps.deps))) throw forbidden('Policy Failed');
                return last(p, a, c, i);
              };
        const chain = middlewares.reduceRight<Resolver>(
          (next, mw) => (p, a, c, i) => mw(next, p, a as Record<string, unknown>, c, i),
          guarded,
        );
        try {
          return await chain(source, args, inner, info);
        } catch (err) {
          // what the app's code threw that is neither Vellum's nor a GraphQLError is logged, never shown
          throw isAppError(err) || err instanceof GraphQLError ? err : new FieldFailure(err);
        }
      };
      wrapped.add(path);
    }
  }
  return { wrapped, unknown: Object.keys(configs).filter((path) => !known.has(path)) };
}
