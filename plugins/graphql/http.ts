/**
 * The endpoint: POST with a JSON body, GET with `?query=` (queries only). A POST of any other
 * content type is refused: a cross-site HTML form can only send form or text bodies, so it can
 * never run an operation (CSRF). Authentication happened before (the users-permissions guard
 * authenticates every route: a bad token is a 401 in REST's envelope, as in Strapi 4).
 */
import { configurationError, isPlainObject, type RequestContext } from '../../core/index.ts';
import { requestError } from './errors.ts';
import type { Answer, GraphqlRequest } from './operation.ts';

export type Run = (request: GraphqlRequest, ctx: RequestContext, get: boolean) => Promise<Answer>;

const refuse = (status: number, message: string, code = 'BAD_REQUEST'): Answer => ({
  status,
  body: JSON.stringify({ errors: [requestError(message, code)] }),
});

function send(ctx: RequestContext, a: Answer): void {
  ctx.status = a.status;
  ctx.type = 'application/json';
  ctx.body = a.body;
}

/** `variables` of a GET: JSON text. */
function jsonParam(raw: unknown): { value: unknown } | null {
  if (raw === undefined || raw === '') return { value: undefined };
  if (typeof raw !== 'string') return null;
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    return null;
  }
}

export function createHandlers(run: Run) {
  return {
    async post(ctx: RequestContext): Promise<void> {
      if (!ctx.request.is('application/json')) {
        send(ctx, refuse(415, 'POST requests must be sent as application/json'));
        return;
      }
      const body = ctx.request.body as unknown;
      if (Array.isArray(body)) {
        send(ctx, refuse(400, 'Batched operations are not supported: send one operation per request'));
        return;
      }
      if (!isPlainObject(body)) {
        send(ctx, refuse(400, 'POST body must be a JSON object with a `query`'));
        return;
      }
      const request = { query: body.query, variables: body.variables, operationName: body.operationName };
      send(ctx, await run(request, ctx, false));
    },
    async get(ctx: RequestContext): Promise<void> {
      const q = ctx.state.query;
      const variables = jsonParam(q.variables);
      if (!variables) {
        send(ctx, refuse(400, '`variables` must be JSON', 'BAD_USER_INPUT'));
        return;
      }
      send(ctx, await run({ query: q.query, variables: variables.value, operationName: q.operationName }, ctx, true));
    },
  };
}

/** The auth state every route has (the guard's, or an open API's); none is a wiring mistake. */
export function authOf(ctx: RequestContext) {
  if (!ctx.state.auth) throw configurationError('GraphQL: a request reached the endpoint without auth state');
  return ctx.state.auth;
}
