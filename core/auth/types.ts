/**
 * What a request is allowed to do, as the auth plugin decided it. The REST controllers (and
 * later GraphQL) only read this; they do not know how it was decided.
 */
export interface RequestAuth {
  /**
   * how the request was authenticated: no credentials, a user's JWT, an API token, or nothing at
   * all because the app runs without an auth plugin as an open API (`server.openApi`)
   */
  strategy: 'public' | 'users-permissions' | 'api-token' | 'open';
  /** the authenticated user (sanitized) or token (without its key); null for public requests */
  credentials: Record<string, unknown> | null;
  /** whether a permission action (`api::article.article.find`, `plugin::upload.content-api.find`, …) is granted */
  allows(action: string): boolean;
  /**
   * The permission set, for the response cache: `key` names it (a role id, a token's id and
   * grants; never a credential), and `deps` are the content types whose writes may change what it
   * grants. Absent: answers to this caller are never cached.
   */
  cacheScope?: { key: string; deps: readonly string[] };
}
