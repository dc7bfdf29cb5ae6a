/**
 * The endpoint: POST with a JSON body, GET with `?query=` (queries only). A POST of any other
 * content type is refused: a cross-site HTML form can only send form or text bodies, so it can
 * never run an operation (CSRF). Authentication happened before (the users-permissions guard
 * authenticates every route: a bad token is a 401 in REST's envelope, as in Strapi 4).
 * With the upload plugin, a multipart POST (GraphQL's multipart request spec) is accepted when
 * it carries a header that forces a preflight (upload/multipart.ts).
 */
import { configurationError, isAppError, isPlainObject, type RequestContext } from '../../core/index.ts';
import { requestError } from './errors.ts';
import type { Answer, GraphqlRequest } from './operation.ts';
import { forcesPreflight, PREFLIGHT_HEADERS, readMultipartRequest } from './upload/multipart.ts';

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

/** Apollo's words for a multipart POST without a preflight-forcing header. */
const CSRF =
  'This operation has been blocked as a potential Cross-Site Request Forgery (CSRF). Please either specify a ' +
  "'content-type' header (with a type that is not one of application/x-www-form-urlencoded, multipart/form-data, " +
  `text/plain) or provide a non-empty value for one of the following headers: ${PREFLIGHT_HEADERS.join(', ')}`;

/** A multipart request read, or the answer refusing it (a malformed form: 400; too large: 413). */
async function multipart(ctx: RequestContext, sizeLimit: number): Promise<GraphqlRequest | Answer> {
  if (!forcesPreflight(ctx)) return refuse(400, CSRF);
  try {
    return await readMultipartRequest(ctx, sizeLimit);
  } catch (err) {
    if (!isAppError(err)) throw err;
    if (err.name === 'PayloadTooLargeError') return refuse(413, err.message, 'PAYLOAD_TOO_LARGE');
    return refuse(400, err.message);
  }
}

/** `uploads`: the upload plugin's size limit, when it is installed (multipart requests are then read). */
export function createHandlers(run: Run, uploads?: { sizeLimit: number }) {
  return {
    async post(ctx: RequestContext): Promise<void> {
      if (uploads && ctx.request.is('multipart/form-data')) {
        const read = await multipart(ctx, uploads.sizeLimit);
        send(ctx, 'status' in read ? read : await run(read, ctx, false));
        return;
      }
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
