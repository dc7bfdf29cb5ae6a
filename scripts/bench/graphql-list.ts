/**
 * The `graphql-list` workload (issue 13): 25 articles sorted by title (as frontends ask) with
 * scalars, relations, media, a component and two dynamic-zone members, in Strapi 4's entity shape.
 * One root field, so one SQL statement on the path without `execute`, over the same documents as
 * REST's `deep-populate`.
 */

export const GRAPHQL_PATH = '/graphql';

export const GRAPHQL_LIST_QUERY = `{
  articles(sort: "title:asc", pagination: { pageSize: 25 }) {
    data {
      id
      attributes {
        title slug views rating price publishDate category
        author { data { attributes { name email } } }
        tags { data { attributes { name } } }
        cover { data { attributes { url width height } } }
        seo { metaTitle keywords { value } }
        blocks {
          ... on ComponentSharedRichText { body }
          ... on ComponentSharedQuote { title body }
        }
      }
    }
    meta { pagination { total } }
  }
}`;

/** The POST body autocannon sends for every request. */
export const GRAPHQL_LIST_BODY = JSON.stringify({ query: GRAPHQL_LIST_QUERY });

/**
 * `graphql-list-flat` (issue 15): the same documents and fields in Strapi 5's flat shape, from a
 * second Vellum started with `shape: 'flat'` on the same database (`documentId` is the entity
 * shape's `id`; `pageInfo.total` its `meta.pagination.total`). Strapi 5's own GraphQL is this shape, so
 * it is the GraphQL workload Strapi is measured on.
 */
export const GRAPHQL_FLAT_QUERY = `{
  articles_connection(sort: "title:asc", pagination: { pageSize: 25 }) {
    nodes {
      documentId
      title slug views rating price publishDate category
      author { name email }
      tags { name }
      cover { url width height }
      seo { metaTitle keywords { value } }
      blocks {
        ... on ComponentSharedRichText { body }
        ... on ComponentSharedQuote { title body }
      }
    }
    pageInfo { total }
  }
}`;

export const GRAPHQL_FLAT_BODY = JSON.stringify({ query: GRAPHQL_FLAT_QUERY });

/** Articles in a GraphQL answer and whether it carries `errors` (the bench refuses to measure an error). */
export function graphqlRows(body: unknown): { rows: number | null; total: number | null; errors: boolean } {
  const b = body as {
    errors?: unknown;
    data?: { articles?: { data?: unknown; meta?: { pagination?: { total?: number } } } | null };
  };
  const list = b?.data?.articles;
  const flat = (body as { data?: { articles_connection?: { nodes?: unknown; pageInfo?: { total?: number } } } })?.data
    ?.articles_connection;
  if (flat) {
    return {
      rows: Array.isArray(flat.nodes) ? flat.nodes.length : null,
      total: flat.pageInfo?.total ?? null,
      errors: b?.errors !== undefined,
    };
  }
  return {
    rows: Array.isArray(list?.data) ? list.data.length : null,
    total: list?.meta?.pagination?.total ?? null,
    errors: b?.errors !== undefined,
  };
}
