/**
 * The extension service (`app.plugin(graphqlPlugin).extension`, or Strapi's
 * `strapi.plugin('graphql').service('extension')`): what an app's `register` uses to change the
 * generated schema (`shadowCRUD`) and to add to it (`use`). Extensions are kept as given and
 * evaluated when bootstrap builds the schema (a function then gets `{ nexus, strapi, app,
 * typeRegistry }`), merged as Strapi merges them: types, typeDefs and plugins appended, a later
 * `resolvers` entry winning, an earlier `resolversConfig` entry winning.
 */
import type { GraphQLFieldResolver } from 'graphql';
import * as nexus from 'nexus';
import type { PolicyItem } from '../../../core/index.ts';
import { createShadowCrud, type ShadowCrud } from './shadow-crud.ts';
import { mergeDeep } from './merge.ts';

/** A resolver middleware: it calls `next` (with the same or other arguments) and returns its result. */
export type ResolverMiddleware = (
  next: GraphQLFieldResolver<unknown, unknown>,
  parent: unknown,
  args: Record<string, unknown>,
  context: unknown,
  info: Parameters<GraphQLFieldResolver<unknown, unknown>>[3],
) => unknown;

/** A registered middleware's name, `{ name, options }`, or a function. */
export type MiddlewareItem = string | { name: string; options?: unknown } | ResolverMiddleware;

export interface ResolverConfig {
  /** false: anyone, even anonymous; `{ scope }`: every listed permission action is needed */
  auth?: false | { scope: string[] };
  policies?: PolicyItem[];
  middlewares?: MiddlewareItem[];
}

/**
 * A resolver as apps write them, with their own parameter types (a method's parameters are
 * checked bivariantly, so `(parent: { body: string }) => …` fits).
 */
export type UserResolver = {
  resolve(
    parent: unknown,
    args: Record<string, unknown>,
    context: unknown,
    info: Parameters<GraphQLFieldResolver<unknown, unknown>>[3],
  ): unknown;
}['resolve'];

/** One extension, as `use` takes it. */
export interface Extension {
  types?: unknown[];
  typeDefs?: string;
  plugins?: unknown[];
  resolvers?: Record<string, Record<string, UserResolver | { resolve: UserResolver }>>;
  resolversConfig?: Record<string, ResolverConfig>;
}

/** What a type registry lookup answers: the generated type's name and what it stands for. */
export interface TypeRegistry {
  has(name: string): boolean;
  get(name: string): { name: string; kind: string; uid?: string } | undefined;
}

/** What an extension function receives. */
export interface ExtensionContext {
  nexus: typeof nexus;
  /** the app's Strapi-compatible facade */
  strapi: unknown;
  app: unknown;
  typeRegistry: TypeRegistry;
}

export type ExtensionInput = Extension | ((context: ExtensionContext) => Extension);

/** Every extension merged. */
export interface MergedExtension {
  types: unknown[];
  typeDefs: string[];
  plugins: unknown[];
  resolvers: NonNullable<Extension['resolvers']>;
  resolversConfig: Record<string, ResolverConfig>;
}

export interface ExtensionService {
  shadowCRUD: ShadowCrud;
  /** add an extension (an object, or a function evaluated when the schema is built); chains */
  use(extension: ExtensionInput): ExtensionService;
  /** evaluate and merge what `use` was given (bootstrap calls it) */
  generate(context: Omit<ExtensionContext, 'nexus'>): MergedExtension;
}

export function createExtensionService(): ExtensionService {
  const inputs: ExtensionInput[] = [];
  let frozen = false;
  const service: ExtensionService = {
    shadowCRUD: createShadowCrud(),
    use(extension) {
      if (frozen) throw new Error('GraphQL extensions are added in register, before bootstrap builds the schema');
      inputs.push(extension);
      return service;
    },
    generate(context) {
      frozen = true;
      const out: MergedExtension = { types: [], typeDefs: [], plugins: [], resolvers: {}, resolversConfig: {} };
      for (const input of inputs) {
        const ext = typeof input === 'function' ? input({ ...context, nexus }) : input;
        if (!ext || typeof ext !== 'object') continue;
        if (typeof ext.typeDefs === 'string') out.typeDefs.push(ext.typeDefs);
        if (Array.isArray(ext.types)) out.types.push(...ext.types);
        if (Array.isArray(ext.plugins)) out.plugins.push(...ext.plugins);
        // a later resolver replaces an earlier one; an earlier config entry keeps what it set (Strapi's merges)
        if (ext.resolvers && typeof ext.resolvers === 'object') out.resolvers = mergeDeep(out.resolvers, ext.resolvers);
        if (ext.resolversConfig && typeof ext.resolversConfig === 'object')
          out.resolversConfig = mergeDeep(ext.resolversConfig, out.resolversConfig);
      }
      return out;
    },
  };
  return service;
}
