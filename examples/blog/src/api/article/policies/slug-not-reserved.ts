/**
 * `api::article.slug-not-reserved`: a new article's slug may not be one of `config.reserved`,
 * the paths the blog's frontend keeps for itself. A policy answers `true` (or nothing) to let
 * the request through; anything else refuses it (GraphQL: FORBIDDEN; REST: 403 PolicyError).
 */
export default (context: { args?: { data?: { slug?: unknown } } }, config: { reserved?: string[] }) => {
  const slug = context.args?.data?.slug;
  return typeof slug !== 'string' || !(config.reserved ?? []).includes(slug.toLowerCase());
};
