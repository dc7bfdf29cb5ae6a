import { buildSchema, graphql } from 'graphql';
import { pino } from 'pino';
import { createHttpServer, type RequestContext } from '../../core/http/server.ts';
import { createPlayground } from '../../plugins/graphql/playground/index.ts';

/**
 * Vellum's HTTP server with the playground at /graphql and a minimal graphql-js endpoint behind
 * it (POST JSON, GET `?query=`), wired as the GraphQL plugin will: the playground's middleware
 * first, the endpoint's routes after. `authorization` echoes the request's header, so a test can
 * see what the page sent.
 */
export async function startPlaygroundApp(): Promise<{ url: string; close(): Promise<void> }> {
  const schema = buildSchema('type Query { hello: String, authorization: String }');
  const server = createHttpServer({
    log: pino({ level: 'silent' }),
    body: { jsonLimit: '1mb', formLimit: '1mb', textLimit: '1mb' },
  });
  server.use(createPlayground({ endpoint: '/graphql' }).middleware);

  const run = async (ctx: RequestContext, params: Record<string, unknown>): Promise<void> => {
    const variables = typeof params.variables === 'string' ? JSON.parse(params.variables) : params.variables;
    ctx.body = await graphql({
      schema,
      source: String(params.query ?? ''),
      rootValue: { hello: 'Hello from Vellum', authorization: ctx.get('authorization') || null },
      variableValues: variables as Record<string, unknown> | undefined,
      operationName: typeof params.operationName === 'string' ? params.operationName : undefined,
    });
  };
  server.route({
    method: 'POST',
    path: '/graphql',
    handler: (ctx) => run(ctx, (ctx.request.body ?? {}) as Record<string, unknown>),
  });
  server.route({ method: 'GET', path: '/graphql', handler: (ctx) => run(ctx, ctx.query) });

  const { port } = await server.listen(0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, close: () => server.close(1000) };
}
