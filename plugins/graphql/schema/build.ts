/**
 * The schema, built once at bootstrap from the registry with Nexus (no file written: no typegen,
 * no SDL output). Strapi prunes what nothing reaches (`pruneSchema`); so does this.
 */
import { type GraphQLFieldResolver, GraphQLSchema, isObjectType, validateSchema } from 'graphql';
import { makeSchema } from 'nexus';
import type { Registry } from '../../../core/index.ts';
import { commonTypes, flatCommonTypes } from './common.ts';
import type { BuildContext, Shape } from './context.ts';
import { componentInputs, contentTypeInputs } from './inputs.ts';
import { type RootField, type SchemaModel, typeNames } from './model.ts';
import { componentOutputs, contentTypeOutputs } from './outputs.ts';
import { componentOutputsFlat, contentTypeOutputsFlat } from './outputs-flat.ts';
import { contentTypeMutations, type MutationRoot, type MutationSource, mutationType } from './mutations.ts';
import { contentTypeMutationsFlat } from './mutations-flat.ts';
import { queryType, type RootResolver } from './queries.ts';
import { queryTypeFlat } from './queries-flat.ts';
import { SCALARS } from './scalars.ts';
import { createShadowCrud, type ShadowCrud } from '../extension/shadow-crud.ts';
import type { MergedExtension } from '../extension/service.ts';
import { EMPTY_EXTENSION, isDefaultResolver, NEXUS_OPTIONS, withUserSchema } from '../extension/schema.ts';

/**
 * Operations added to the shadow CRUD (users-permissions', upload's): their Nexus types and
 * resolvers by type and field, set after the schema is built (it leaves every other field
 * without one).
 */
export interface SchemaExtension {
  types: unknown[];
  resolvers: Record<string, Record<string, GraphQLFieldResolver<unknown, unknown>>>;
}

/**
 * An extension, or one made from what the schema is built from (its shape, the roles of the types
 * generated so far): called once the content-types' types are defined, so it can give a type of
 * its own a role the planner reads (the flat shape's `UsersPermissionsUserEntityResponse`).
 */
export type ExtensionSource = SchemaExtension | ((ctx: BuildContext) => SchemaExtension);

export interface BuiltSchema {
  schema: GraphQLSchema;
  model: SchemaModel;
  /** Query and Mutation fields Vellum's own resolvers answer (they check the caller's rights) */
  internal: ReadonlySet<string>;
  /** the permission action of each shadow CRUD root field and write (`Query.articles` → `….find`) */
  actions: ReadonlyMap<string, string>;
}

/**
 * Build the shadow CRUD schema. `resolveRoot` gives each Query field its resolver (the one
 * `execute` calls when a request takes the general path); every other field is left without one,
 * so `execute`'s field resolver reads values by response key (answers are built under aliases).
 */
/** What gives each shadow CRUD Mutation field its resolver. */
export type MutationResolver = (root: MutationRoot) => GraphQLFieldResolver<unknown, unknown>;

export interface BuildOptions {
  shadowCRUD?: boolean;
  resolveMutation?: MutationResolver;
  /** modules adding Mutation fields of their own, as specs (see mutations.ts) */
  mutations?: MutationSource[];
  /** modules adding Nexus types and their resolvers (users-permissions' and upload's operations) */
  extensions?: ExtensionSource[];
  /** the app's extensions, merged (types, typeDefs, plugins, resolvers) */
  user?: MergedExtension;
  /** what the app's `register` disabled through `extension.shadowCRUD(uid)` */
  shadowCrud?: ShadowCrud;
  /** `graphql.config.shape` (default `entity`) and, for `flat`, `v4CompatibilityMode` */
  shape?: Shape;
  v4Compat?: boolean;
}

/** What each shape generates (Strapi 4's entity shape; Strapi 5's flat one). */
const SHAPES = {
  entity: {
    common: commonTypes,
    outputs: contentTypeOutputs,
    inputs: contentTypeInputs,
    componentOutputs,
    query: queryType,
    mutations: contentTypeMutations,
  },
  flat: {
    common: (ctx: BuildContext) => [...commonTypes(ctx), ...flatCommonTypes()],
    outputs: contentTypeOutputsFlat,
    inputs: contentTypeInputs,
    componentOutputs: componentOutputsFlat,
    query: queryTypeFlat,
    mutations: contentTypeMutationsFlat,
  },
} as const;

export function buildSchema(registry: Registry, resolveRoot: RootResolver, options: BuildOptions = {}): BuiltSchema {
  const shadowCRUD = options.shadowCRUD ?? true;
  const shadow = options.shadowCrud ?? createShadowCrud();
  // a type `register` disabled is left out (names holds only those in the schema), and with it
  // every relation or media attribute pointing at it
  const names = typeNames(registry, (uid) => shadow(uid).isEnabled());
  const ctx: BuildContext = {
    registry,
    names,
    roles: new Map(),
    shadow,
    shape: options.shape ?? 'entity',
    v4Compat: options.v4Compat ?? false,
  };
  const shape = SHAPES[ctx.shape];
  // without shadow CRUD nothing is generated from the content-types: only extensions add types
  const exposed = shadowCRUD ? registry.contentTypes().filter((ct) => names.has(ct.uid)) : [];
  const roots = new Map<string, RootField>();
  const mutations = [
    ...(shadowCRUD ? shape.mutations(ctx, exposed) : []),
    ...(options.mutations ?? []).flatMap((source) => source(ctx)),
  ];
  const specs = new Map(mutations.map((m) => [m.name, m]));
  const mutation = mutationType(mutations);
  const generated = [
    ...SCALARS,
    ...shape.common(ctx),
    ...exposed.flatMap((ct) => [...shape.outputs(ctx, ct), ...shape.inputs(ctx, ct)]),
    ...(shadowCRUD ? registry.components().filter((c) => shadow(c.uid).isEnabled()) : []).flatMap((c) => [
      ...shape.componentOutputs(ctx, c.uid),
      ...componentInputs(ctx, c.uid),
    ]),
    shape.query(ctx, exposed, roots),
    ...(mutation ? [mutation] : []),
  ];
  const extensions = (options.extensions ?? []).map((e) => (typeof e === 'function' ? e(ctx) : e));
  const types = [...generated, ...extensions.flatMap((e) => e.types)];
  const user = options.user ?? EMPTY_EXTENSION;
  const base = makeSchema({ ...NEXUS_OPTIONS, types: [...types, ...user.types] });
  const { schema: full, resolved: replaced } = withUserSchema(base, user);
  // only what a root field reaches stays (Strapi's pruneSchema): e.g. the filters of a type nothing lists
  const schema = new GraphQLSchema({ ...full.toConfig(), types: [] });
  const query = schema.getQueryType();
  const mutationRoot = schema.getMutationType();
  // fields whose resolver is the app's (a Nexus type's `resolve`, or `resolvers`)
  const custom = new Set<string>();
  // Query and Mutation fields Vellum defines (they check the caller's rights themselves)
  const internal = new Set<string>();
  const actions = new Map<string, string>();
  // the resolvers of the plugins' own operations (users-permissions', upload's), by `Type.field`
  const pluginResolvers = new Map<string, GraphQLFieldResolver<unknown, unknown>>(
    extensions.flatMap((e) =>
      Object.entries(e.resolvers).flatMap(([typeName, fields]) =>
        Object.entries(fields).map(([name, resolve]) => [`${typeName}.${name}`, resolve] as const),
      ),
    ),
  );
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const path = `${type.name}.${field.name}`;
      const spec = type === mutationRoot ? specs.get(field.name) : undefined;
      const root = type === query ? roots.get(field.name) : undefined;
      if (replaced.has(path)) {
        // the app's resolver replaces Vellum's: its own checks go with it, the wrapper's stay (auth)
        custom.add(path);
      } else if (spec) {
        internal.add(path);
        if (spec.root) actions.set(path, spec.root.action);
        field.resolve = spec.resolve ?? (spec.root && options.resolveMutation?.(spec.root));
      } else if (root) {
        internal.add(path);
        actions.set(path, root.action);
        field.resolve = resolveRoot(root);
      } else if (pluginResolvers.has(path)) {
        if (type === query || type === mutationRoot) internal.add(path);
        field.resolve = pluginResolvers.get(path);
      } else if (isDefaultResolver(field.resolve)) {
        // read by response key (the reads answer under aliases): execute's field resolver
        field.resolve = undefined;
      } else {
        custom.add(path);
      }
    }
  }
  // e.g. a type whose every field the shadow CRUD disabled: refused at bootstrap, as Apollo's start refuses it
  // (a schema without any Query field is not served at all: index.ts says so)
  const invalid = Object.keys(query?.getFields() ?? {}).length > 0 ? validateSchema(schema) : [];
  if (invalid.length > 0) throw new Error(`GraphQL: invalid schema: ${invalid.map((e) => e.message).join(' ')}`);
  return {
    schema,
    model: {
      shape: ctx.shape,
      v4Compat: ctx.v4Compat,
      roles: ctx.roles,
      roots: new Map([...roots].filter(([name]) => !custom.has(`Query.${name}`))),
      typeOf: (uid) => names.get(uid)!,
      resolved: new Set(custom),
      custom,
    },
    internal,
    actions,
  };
}
