/** The issues' targets: how far Vellum must beat the reference Strapi measured in the same run, and its own bounds. */

/** Cold (response cache off): at least this many times Strapi's req/s, on every REST workload (issue 16). */
export const STRAPI_FACTOR = 10;

/** Warm (response cache on): at least this many times Strapi's req/s, on every REST workload (issue 16). */
export const WARM_FACTOR = 50;

/** The mixed workload (cache on): at least this many times Strapi's req/s (issue 16). */
export const MIXED_FACTOR = 10;

/** A sorted page of 25, filtered or not, total included: at most this much slower at the largest size (issue 16). */
export const SCALE_LIMIT = 2;

/** …and `list-populate` at least this fraction of the ceiling's req/s. */
export const CEILING_FRACTION = 0.6;

/** `graphql-list` at least this fraction of Vellum's own `deep-populate` req/s in the same run (issue 13). */
export const GRAPHQL_FRACTION = 0.8;

/** `graphql-list-flat` at least this fraction of `graphql-list` in the same run: within 10% (issue 15). */
export const FLAT_FRACTION = 0.9;
