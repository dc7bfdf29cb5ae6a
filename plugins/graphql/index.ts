import type { GraphQLSchema } from 'graphql';
import { type App, definePlugin, FILE_UID } from '../../core/index.ts';
import { type GraphqlConfig, graphqlConfigSchema } from './config.ts';
import { authOf, createHandlers } from './http.ts';
import { createOperations, rootResolver } from './operation.ts';
import { mutationResolver } from './mutations/resolve.ts';
import { type BuiltSchema, buildSchema } from './schema/build.ts';
import type { MutationSource } from './schema/mutations.ts';
import type { SchemaModel } from './schema/model.ts';
import { createPlayground, playgroundEnabled } from './playground/index.ts';
import { usersPermissionsPlugin } from '../users-permissions/index.ts';
import { usersPermissionsOperations } from './users-permissions/operations.ts';
import { uploadPlugin } from '../upload/index.ts';
import { uploadOperations } from './upload/operations.ts';
import { uploadFileCrud } from './upload/crud.ts';
import { usersPermissionsCrud } from './users-permissions/crud.ts';
import { createExtensionService, type ExtensionService } from './extension/service.ts';
import { typeRegistryOf } from './extension/type-registry.ts';
import { type WrapDeps, wrapResolvers } from './extension/wrap.ts';

const USER_UID = 'plugin::users-permissions.user';
const ROLE_UID = 'plugin::users-permissions.role';

export interface GraphqlApi {
  config: GraphqlConfig;
  /** change the generated schema (`shadowCRUD`) and add to it (`use`), in `register` */
  extension: ExtensionService;
  /** Strapi's services by name, for `strapi.plugin('graphql').service('extension')` */
  services: { extension: ExtensionService };
  /** the schema (once bootstrap has built it) */
  schema(): GraphQLSchema;
  /** what its types stand for */
  model(): SchemaModel;
  /** add Mutation fields (a plugin's own operations); before bootstrap, which builds the schema */
  addMutations(source: MutationSource): void;
  /** the sources added so far */
  mutationSources: MutationSource[];
  /** set at bootstrap */
  built?: BuiltSchema;
}

declare module '../../core/index.ts' {
  /** `strapi.plugin('graphql').service('extension')` is typed */
  interface PluginServices {
    graphql: GraphqlApi['services'];
  }
}

/** The kernel's registries of policies and middlewares, and what they are given (Strapi's `{ strapi }`). */
const kernelOf = (app: App): WrapDeps => ({
  policy: (name) => app.policy(name),
  middleware: (name) => app.middleware(name),
  deps: { strapi: app.strapi, app },
});

/** `apolloServer.introspection` when set, else Apollo's default: off in production (unless `playgroundAlways`). */
const introspectionOf = (config: GraphqlConfig, nodeEnv: string | undefined): boolean =>
  config.apolloServer.introspection ?? (nodeEnv !== 'production' || config.playgroundAlways);

function builtOf(api: GraphqlApi): BuiltSchema {
  if (!api.built) throw new Error('The GraphQL schema is built at bootstrap');
  return api.built;
}

/**
 * The GraphQL plugin: the shadow CRUD in Strapi 4's entity shape (or, with `shape: 'flat'`,
 * Strapi 5's), built with Nexus from the registry and the app's extensions at bootstrap, served
 * at `graphql.config.endpoint`. Each root field is one SQL statement (see operation.ts and plan/).
 */
export const graphqlPlugin = definePlugin({
  name: 'graphql',
  register(app): GraphqlApi {
    const config = app.pluginConfig('graphql', graphqlConfigSchema);
    const sources: MutationSource[] = [];
    const extension = createExtensionService();
    const api: GraphqlApi = {
      config,
      extension,
      services: { extension },
      schema: () => builtOf(api).schema,
      model: () => builtOf(api).model,
      addMutations: (source) => {
        if (api.built) throw new Error('GraphQL mutations are added before bootstrap builds the schema');
        sources.push(source);
      },
      mutationSources: sources,
    };
    app.endpoints.add({ name: 'GraphQL API', path: config.endpoint, api: true });
    // the page comes before the endpoint's routes: a browser's GET gets it, every other request the endpoint
    if (playgroundEnabled({ nodeEnv: app.env.NODE_ENV, playgroundAlways: config.playgroundAlways })) {
      app.server.use(createPlayground({ endpoint: config.endpoint }).middleware);
      app.endpoints.add({ name: 'GraphQL playground', path: config.endpoint });
    }
    return api;
  },
  bootstrap(app, api) {
    const { config } = api;
    const ignored = Object.keys(config.apolloServer).filter((k) => k !== 'introspection');
    if (ignored.length > 0)
      app.log.warn(`graphql: apolloServer options ${ignored.join(', ')} do not apply to Vellum and are ignored`);
    // plugins' own operations (Strapi 4 adds them with the shadow CRUD)
    const withUsers = config.shadowCRUD && app.hasPlugin(usersPermissionsPlugin);
    const upload = config.shadowCRUD && app.hasPlugin(uploadPlugin) ? app.plugin(uploadPlugin) : undefined;
    const users = () => app.plugin(usersPermissionsPlugin);
    const crud = {
      users: () => users().userHandlers,
      roles: () => users().roleHandlers,
      auth: () => users().authHandlers,
    };
    // a type `register` disabled takes its plugin's writes with it (they read and answer it)
    const shadow = api.extension.shadowCRUD;
    const on = { users: shadow(USER_UID).isEnabled(), roles: shadow(ROLE_UID).isEnabled() };
    const file = shadow(FILE_UID);
    const fileWrites = (action: string) => file.areMutationsEnabled() && file.isActionEnabled(action);
    const extensions = [
      ...(withUsers ? [usersPermissionsOperations(app, crud.auth), usersPermissionsCrud(app, crud, on)] : []),
      ...(upload && file.isEnabled()
        ? [uploadOperations(() => upload.service), uploadFileCrud(() => upload.service, fileWrites)]
        : []),
    ];
    // the mutations' resolver reads the model the build fills in (type names of components)
    let model: SchemaModel | undefined;
    const resolveMutation = mutationResolver(app, () => model!);
    const kernel = kernelOf(app);
    const user = api.extension.generate({
      strapi: kernel.deps.strapi,
      app,
      typeRegistry: typeRegistryOf(app.registry, config.shadowCRUD, api.extension.shadowCRUD),
    });
    api.built = buildSchema(app.registry, rootResolver(app), {
      shadowCRUD: config.shadowCRUD,
      resolveMutation,
      mutations: api.mutationSources,
      extensions,
      shadowCrud: api.extension.shadowCRUD,
      shape: config.shape,
      v4Compat: config.v4CompatibilityMode,
      user,
    });
    model = api.built.model;
    const { wrapped, unknown } = wrapResolvers(
      api.built.schema,
      { ...api.built, custom: model.custom },
      user.resolversConfig,
      kernel,
    );
    for (const path of wrapped) model.resolved.add(path);
    if (unknown.length > 0)
      app.log.warn(`graphql: resolversConfig names fields the schema does not have: ${unknown.join(', ')}`);
    if (Object.keys(api.built.schema.getQueryType()?.getFields() ?? {}).length === 0) {
      // a schema needs a Query field: without the shadow CRUD, only an extension can add one
      app.log.warn('graphql: shadowCRUD is off and nothing else defines a query; the endpoint is not served');
      return;
    }
    const ops = createOperations({
      app,
      schema: api.built.schema,
      model: api.built.model,
      depthLimit: config.depthLimit,
      maxTokens: config.maxTokens,
      documentLimits: config,
      introspection: introspectionOf(config, app.env.NODE_ENV),
      limits: {
        defaultLimit: config.defaultLimit,
        maxLimit: config.maxLimit === -1 ? null : config.maxLimit,
        amountLimit: config.amountLimit,
      },
    });
    const handlers = createHandlers((request, ctx, get) => ops.run(request, authOf(ctx), get, ctx), upload);
    // with uploads, a refused multipart POST is drained as the upload route's is, so its client gets the answer
    // queries the planner answers are cached (the handler names what they read); anything else is not
    const cache = { cache: true };
    app.server.route({
      method: 'POST',
      path: config.endpoint,
      handler: handlers.post,
      bodyLimit: upload?.bodyLimit,
      config: cache,
    });
    app.server.route({ method: 'GET', path: config.endpoint, handler: handlers.get, config: cache });
  },
});

export type {
  Extension,
  ExtensionContext,
  ExtensionInput,
  ExtensionService,
  MiddlewareItem,
  ResolverConfig,
  ResolverMiddleware,
  TypeRegistry,
} from './extension/service.ts';
export type { ShadowCrud, ShadowCrudField, ShadowCrudType } from './extension/shadow-crud.ts';
export type { GraphqlContext, ReadOptions } from './read.ts';
