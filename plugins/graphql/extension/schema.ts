/**
 * The app's extensions applied to the generated schema, as Strapi's plugin does it: SDL
 * `typeDefs` merged into the Nexus schema (graphql-tools' `mergeSchemas`, so `extend type` and
 * new types both work), Nexus `plugins` run over the merged schema, `resolvers` set on its fields.
 */
import { mergeSchemas } from '@graphql-tools/schema';
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema, isObjectType } from 'graphql';
import { makeSchema } from 'nexus';
import { configurationError } from '../../../core/index.ts';
import type { MergedExtension } from './service.ts';

export const EMPTY_EXTENSION: MergedExtension = {
  types: [],
  typeDefs: [],
  plugins: [],
  resolvers: {},
  resolversConfig: {},
};

/**
 * How every schema is made with Nexus: in memory (no typegen, no SDL file), nullable unless said
 * otherwise (as Strapi), unions resolved by `__typename` (the reads put it on dynamic-zone items).
 */
export const NEXUS_OPTIONS = {
  outputs: false,
  shouldGenerateArtifacts: false,
  nonNullDefaults: { input: false, output: false },
  features: { abstractTypeStrategies: { __typename: true } },
} as const;

/** Nexus gives a field without a resolver graphql's default one. */
export const isDefaultResolver = (resolve: unknown): boolean =>
  resolve === undefined || resolve === defaultFieldResolver;

/**
 * `typeDefs`, `resolvers` and `plugins` applied, in Strapi's order, to the schema Nexus built
 * from the generated and the app's types; also returns the fields `resolvers` set.
 */
export function withUserSchema(
  base: GraphQLSchema,
  user: MergedExtension,
): { schema: GraphQLSchema; resolved: Set<string> } {
  let schema = base;
  if (user.typeDefs.length > 0) {
    try {
      schema = mergeSchemas({ schemas: [schema], typeDefs: user.typeDefs });
    } catch (err) {
      throw configurationError(`GraphQL: the extensions' typeDefs do not merge: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }
  const resolved = new Set(applyResolvers(schema, user.resolvers));
  if (user.plugins.length === 0) return { schema, resolved };
  // Nexus rebuilds the schema from the merged one, so its plugins see every type and resolver (Strapi's `mergeSchema`)
  const rebuilt = makeSchema({
    ...NEXUS_OPTIONS,
    types: [],
    mergeSchema: { schema },
    plugins: user.plugins as Parameters<typeof makeSchema>[0]['plugins'],
  });
  return { schema: rebuilt, resolved };
}

type Resolvers = MergedExtension['resolvers'];

/**
 * Set the app's `resolvers` (`{ Type: { field: fn | { resolve } } }`) on the schema's fields;
 * returns the `Type.field` paths set. A type or field the schema lacks fails the start, as
 * graphql-tools' `addResolversToSchema` does: a misspelled name would otherwise do nothing.
 */
export function applyResolvers(schema: GraphQLSchema, resolvers: Resolvers): string[] {
  const out: string[] = [];
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) {
      throw configurationError(`GraphQL: resolvers name the type ${typeName}, which the schema does not have`);
    }
    for (const [name, value] of Object.entries(fields ?? {})) {
      const field = type.getFields()[name];
      const resolve = typeof value === 'function' ? value : value?.resolve;
      if (!field) {
        throw configurationError(`GraphQL: resolvers name ${typeName}.${name}, which the schema does not have`);
      }
      if (typeof resolve !== 'function') {
        throw configurationError(`GraphQL: the resolver of ${typeName}.${name} must be a function or { resolve }`);
      }
      field.resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
      out.push(`${typeName}.${name}`);
    }
  }
  return out;
}
