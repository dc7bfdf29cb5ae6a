/** The fixed requests of the benchmark, from the issues (13, 15, 16). */
import qs from 'qs';
import type { Targets } from './discover.ts';
import { CEILING_PATH } from './ceiling.ts';
import { GRAPHQL_FLAT_BODY, GRAPHQL_LIST_BODY, GRAPHQL_PATH } from './graphql-list.ts';

export interface Workload {
  name: string;
  /** path and query string, relative to the server */
  path: string;
  /** what it exercises, for the table */
  about: string;
  /** a POST of this JSON body (GraphQL); GET when absent */
  body?: string;
  /** answer rows the bench requires (the GraphQL answer is checked for them and for no `errors`) */
  expectRows?: number;
  /** a REST read, held to the Strapi targets (GraphQL ones have their own) */
  rest: boolean;
  /**
   * a sorted page of 25 documents, unfiltered or with a common filter, total included: issue 16
   * wants it at most 2x slower at 100k documents than at 1k
   */
  page: boolean;
  /** which Vellum serves it: the blog as configured, or the one started with GRAPHQL_SHAPE=flat */
  shape?: 'flat';
}

// Built from objects with qs, as a Strapi client (and @strapi/client) does: bracket notation,
// only values encoded.
const query = (params: object): string => qs.stringify(params, { encodeValuesOnly: true });

/** How frontends ask for lists: in a stable, human order. */
export const SORT = 'title:asc';

/** author.avatar/socials, tag names, seo.shareImage/keywords, every zone component with `on`; 10 rows. */
const DEEP_POPULATE = {
  sort: SORT,
  pagination: { pageSize: 10 },
  populate: {
    author: { populate: ['avatar', 'socials'] },
    tags: { fields: ['name'] },
    seo: { populate: ['shareImage', 'keywords'] },
    blocks: {
      on: {
        'shared.quote': { populate: ['person'] },
        'shared.media': { populate: ['file'] },
        'shared.slider': { populate: ['files'] },
        'shared.rich-text': { populate: '*' },
      },
    },
  },
};

/** A sorted page of articles through `filters`. */
const page = (filters: object): string => `/api/articles?${query({ filters, sort: SORT })}`;

/** The workloads, aimed at the documents and values `t` found. */
export function buildWorkloads(t: Targets): Workload[] {
  const relation = { tags: { name: { $in: t.tags } }, views: { $gte: t.viewsGte } };
  const rows = Math.min(25, t.articles);
  return [
    { name: 'list', path: `/api/articles?sort=${SORT}`, about: '25 rows sorted, no populate', page: true },
    // the request the ceiling answers too, so the two are compared on the same work
    { name: 'list-populate', path: CEILING_PATH, about: '25 rows sorted, populate=*', page: false },
    {
      name: 'filter-range',
      path: page({ views: { $gte: t.viewsGte } }),
      about: `views $gte ${t.viewsGte}, sorted`,
      page: true,
    },
    {
      name: 'filter-date',
      path: page({ publishDate: { $lt: t.dateLt } }),
      about: `publishDate $lt ${t.dateLt}, sorted`,
      page: true,
    },
    {
      name: 'filter-eq',
      path: page({ category: { $eq: t.categories[0] } }),
      about: `category (enumeration) $eq ${t.categories[0]}, sorted`,
      page: true,
    },
    {
      name: 'filter-in',
      path: page({ views: { $in: t.views } }),
      about: `views $in ${t.views.length} values found, sorted`,
      page: true,
    },
    {
      name: 'findOne-populate',
      path: `/api/articles/${t.documentId}?populate=*`,
      about: 'one document, populate=*',
      page: false,
    },
    {
      name: 'deep-populate',
      path: `/api/articles?${query(DEEP_POPULATE)}`,
      about: '10 rows sorted, nested populate, DZ on',
      page: false,
    },
    {
      name: 'filter-relation',
      path: `/api/articles?${query({ filters: relation, sort: SORT })}`,
      about: `tags.name $in [${t.tags.join(', ')}], views $gte ${t.viewsGte}, sorted`,
      page: false,
    },
    {
      name: 'graphql-list',
      path: GRAPHQL_PATH,
      body: GRAPHQL_LIST_BODY,
      expectRows: rows,
      about: '25 articles sorted, entity shape: relations, media, seo, DZ',
      page: false,
    },
    {
      name: 'graphql-list-flat',
      path: GRAPHQL_PATH,
      body: GRAPHQL_FLAT_BODY,
      expectRows: rows,
      about: "the same 25 articles and fields in Strapi 5's flat shape",
      page: false,
      shape: 'flat' as const,
    },
  ].map((w) => ({ ...w, rest: w.body === undefined }));
}
