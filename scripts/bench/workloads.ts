/** The fixed requests of the benchmark, from the issue. */
import qs from 'qs';
import type { Targets } from './discover.ts';
import { STRAPI_RPS } from './targets.ts';
import { CEILING_PATH } from './ceiling.ts';
import { GRAPHQL_LIST_BODY, GRAPHQL_PATH } from './graphql-list.ts';

export interface Workload {
  name: string;
  /** path and query string, relative to the server */
  path: string;
  /** what it exercises, for the table */
  about: string;
  /** the reference Strapi's req/s (issue) */
  strapi: number;
  /** a POST of this JSON body (GraphQL); GET when absent */
  body?: string;
  /** answer rows the bench requires (the GraphQL answer is checked for them and for no `errors`) */
  expectRows?: number;
}

// Built from objects with qs, as a Strapi client (and @strapi/client) does: bracket notation,
// only values encoded.
const query = (params: object): string => qs.stringify(params, { encodeValuesOnly: true });

/** author.avatar/socials, tag names, seo.shareImage/keywords, every zone component with `on`; 10 rows. */
const DEEP_POPULATE = {
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

/** The six workloads, aimed at the documents and values `t` found. */
export function buildWorkloads(t: Targets): Workload[] {
  const filter = { filters: { tags: { name: { $in: t.tags } }, views: { $gte: t.viewsGte } } };
  const workloads: Array<Omit<Workload, 'strapi'>> = [
    { name: 'list', path: '/api/articles', about: '25 rows, no populate' },
    // the request the ceiling answers too, so the two are compared on the same work
    { name: 'list-populate', path: CEILING_PATH, about: '25 rows, populate=*' },
    { name: 'findOne-populate', path: `/api/articles/${t.documentId}?populate=*`, about: 'one document, populate=*' },
    { name: 'deep-populate', path: `/api/articles?${query(DEEP_POPULATE)}`, about: '10 rows, nested populate, DZ on' },
    {
      name: 'filter-relation',
      path: `/api/articles?${query(filter)}`,
      about: `tags.name $in [${t.tags.join(', ')}], views $gte ${t.viewsGte}`,
    },
    {
      name: 'graphql-list',
      path: GRAPHQL_PATH,
      body: GRAPHQL_LIST_BODY,
      expectRows: Math.min(25, t.articles),
      about: '25 articles, entity shape: relations, media, seo, DZ',
    },
  ];
  return workloads.map((w) => ({ ...w, strapi: STRAPI_RPS[w.name] }));
}
