/**
 * What `execute` gives every resolver as its context: the request's auth and its HTTP context
 * (absent when a request is run without one, e.g. from a test), for the operations that are not
 * shadow CRUD reads (users-permissions' and upload's), which reuse REST's handlers and services.
 */
import type { RequestAuth, RequestContext } from '../../core/index.ts';

export interface ResolverContext {
  auth: RequestAuth;
  http: RequestContext | undefined;
}
