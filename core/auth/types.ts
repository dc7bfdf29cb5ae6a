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
}
