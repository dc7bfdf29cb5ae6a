import type { GraphQLSchema } from 'graphql';
import { definePlugin } from '../../core/index.ts';
import { type GraphqlConfig, graphqlConfigSchema } from './config.ts';
import { authOf, createHandlers } from './http.ts';
import { createOperations, rootResolver } from './operation.ts';
import { type BuiltSchema, buildSchema } from './schema/build.ts';
import type { SchemaModel } from './schema/model.ts';
import { createPlayground, playgroundEnabled } from './playground/index.ts';

export interface GraphqlApi {
  config: GraphqlConfig;
  /** the schema (once bootstrap has built it) */
  schema(): GraphQLSchema;
  /** what its types stand for */
  model(): SchemaModel;
  /** set at bootstrap */
  built?: BuiltSchema;
}

/** `apolloServer.introspection` when set, else Apollo's default: off in production (unless `playgroundAlways`). */
const introspectionOf = (config: GraphqlConfig, nodeEnv: string | undefined): boolean =>
  config.apolloServer.introspection ?? (nodeEnv !== 'production' || config.playgroundAlways);

function builtOf(api: GraphqlApi): BuiltSchema {
  if (!api.built) throw new Error('The GraphQL schema is built at bootstrap');
  return api.built;
}

/**
 * The GraphQL plugin: Strapi 4's shadow CRUD in its entity shape, built with Nexus from the
 * registry at bootstrap, served at `graphql.config.endpoint`. Each root field is one SQL
 * statement (see operation.ts and plan/).
 */
export const graphqlPlugin = definePlugin({
  name: 'graphql',
  register(app): GraphqlApi {
    const config = app.pluginConfig('graphql', graphqlConfigSchema);
    const api: GraphqlApi = { config, schema: () => builtOf(api).schema, model: () => builtOf(api).model };
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
    api.built = buildSchema(app.registry, rootResolver(app), config.shadowCRUD);
    if (Object.keys(api.built.schema.getQueryType()?.getFields() ?? {}).length === 0) {
      // a schema needs a Query field: nothing to serve until an extension adds one (#14)
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
    const handlers = createHandlers((request, ctx, get) => ops.run(request, authOf(ctx), get));
    app.server.route({ method: 'POST', path: config.endpoint, handler: handlers.post });
    app.server.route({ method: 'GET', path: config.endpoint, handler: handlers.get });
  },
});
