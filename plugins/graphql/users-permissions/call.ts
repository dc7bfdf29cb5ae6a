/**
 * Calling one of REST's handlers from a resolver: the handler sees the request's own context
 * (its address, auth, logger: the same rate-limit keys, the same checks) with the operation's
 * input as its body, and what it answers is captured instead of sent.
 */
import { configurationError, type RequestContext } from '../../../core/index.ts';

export type Handler = (ctx: RequestContext) => Promise<void>;

/** The handler users-permissions exposes for `action`. */
export function handlerOf(handlers: Record<string, Handler>, action: string): Handler {
  const handler = handlers[action];
  if (!handler) throw configurationError(`users-permissions has no handler for ${action}`);
  return handler;
}

export async function callHandler(
  handler: Handler,
  http: RequestContext,
  body: Record<string, unknown>,
  params: Record<string, string> = {},
) {
  const request: unknown = Object.create(http.request, { body: { value: body, writable: true } });
  // own `request` and `body`: the real response is left alone (the endpoint writes it); own
  // `params`: the route's (`/users/:id`) as the handler reads them
  const ctx = Object.create(http, {
    request: { value: request },
    params: { value: params },
    // the REST query is the route's, not the GraphQL request's (a handler parses it for its view)
    state: { value: Object.create(http.state, { query: { value: {}, writable: true } }) },
    body: { value: undefined, writable: true },
    status: { value: 200, writable: true },
  }) as RequestContext;
  await handler(ctx);
  return ctx.body as unknown;
}
