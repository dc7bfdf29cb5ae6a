/**
 * GraphQL multipart requests (https://github.com/jaydenseric/graphql-multipart-request-spec):
 * an `operations` field (the JSON request), a `map` field (which file part goes to which
 * variable) and the file parts, read with the upload plugin's parser (same size limits).
 */
import { isPlainObject, type RequestContext, validationError } from '../../../core/index.ts';
import { parseMultipart } from '../../upload/multipart.ts';
import type { GraphqlRequest } from '../operation.ts';

/** What a multipart POST must carry for its operation to run (Apollo's CSRF prevention). */
export const PREFLIGHT_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];

/**
 * A browser sends a cross-site multipart form without a preflight; with one of these headers it
 * must ask first, and the endpoint's CORS answer decides. So a form alone never runs a mutation.
 */
export const forcesPreflight = (ctx: RequestContext): boolean =>
  PREFLIGHT_HEADERS.some((h) => (ctx.get(h) ?? '') !== '');

function json(fields: Map<string, string[]>, name: string): unknown {
  const text = fields.get(name)?.[0];
  if (text === undefined) throw validationError(`Missing multipart field '${name}'`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError(`Invalid JSON in the '${name}' multipart field`);
  }
}

/** Put `value` at `path` (`variables.files.1`) inside `operation`. */
function place(operation: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys[0] !== 'variables' || keys.length < 2) throw validationError(`Invalid map path '${path}'`);
  let at: unknown = operation;
  for (const key of keys.slice(0, -1)) {
    at = isPlainObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
    if (!isPlainObject(at) && !Array.isArray(at)) throw validationError(`Invalid map path '${path}'`);
  }
  (at as Record<string, unknown>)[keys.at(-1)!] = value;
}

/** The request a multipart body carries, its files in its variables (400 for a malformed one). */
export async function readMultipartRequest(ctx: RequestContext, sizeLimit: number): Promise<GraphqlRequest> {
  const reserved = new Set(['operations', 'map']);
  const { byField, fields } = await parseMultipart(ctx.req, sizeLimit, (name) => !reserved.has(name));
  const operation = json(fields, 'operations');
  if (Array.isArray(operation)) throw validationError('Batched operations are not supported');
  if (!isPlainObject(operation)) throw validationError("'operations' must be a JSON object");
  const map = json(fields, 'map');
  if (!isPlainObject(map)) throw validationError("'map' must be a JSON object of paths");
  if (operation.variables === undefined || operation.variables === null) operation.variables = {};
  for (const [key, paths] of Object.entries(map)) {
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
      throw validationError(`'map.${key}' must be an array of paths`);
    const file = byField.get(key)?.[0];
    if (!file) throw validationError(`File missing in the request for 'map.${key}'`);
    for (const p of paths) place(operation, p as string, file);
  }
  return { query: operation.query, variables: operation.variables, operationName: operation.operationName };
}
