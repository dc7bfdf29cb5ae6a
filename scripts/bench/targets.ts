/** The targets: Strapi 5.54 on this 2-core machine, and how far Vellum must beat it. */

/** req/s of the reference Strapi 5.54, per workload (from the issue, one run on this machine). */
export const STRAPI_RPS: Readonly<Record<string, number>> = {
  list: 146,
  'list-populate': 47,
  'findOne-populate': 156,
  'deep-populate': 56,
  'filter-relation': 177,
  // about 10 req/s for this query (issue 13); its target is GRAPHQL_FRACTION of deep-populate instead
  'graphql-list': 10,
  'graphql-list-flat': 10,
};

/** Vellum must serve at least this many times Strapi's figure, in every workload. */
export const STRAPI_FACTOR = 10;

/** …and `list-populate` at least this fraction of the ceiling's req/s. */
export const CEILING_FRACTION = 0.6;

/** `graphql-list` at least this fraction of Vellum's own `deep-populate` req/s in the same run (issue 13). */
export const GRAPHQL_FRACTION = 0.8;

/** `graphql-list-flat` at least this fraction of `graphql-list` in the same run: within 10% (issue 15). */
export const FLAT_FRACTION = 0.9;
