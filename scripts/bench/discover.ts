/**
 * What the workloads need to know about the data, found through the API alone, so the same
 * code serves a freshly seeded Vellum and any other server (`--url`).
 */
import type { Api } from './http.ts';

export interface Targets {
  /** a published article (the first one), for findOne */
  documentId: string;
  /** two tag names (the first two by name) and the median of `views`, for filter-relation */
  tags: [string, string];
  viewsGte: number;
  /** published articles in the default locale */
  articles: number;
}

type List = { data: Array<Record<string, unknown>>; meta: { pagination: { total: number } } };

/** Find a published article, two tags and the median views through the API (fails if the server is empty). */
export async function discoverTargets(api: Api): Promise<Targets> {
  const first = await api.json<List>('GET', '/api/articles?pagination[page]=1&pagination[pageSize]=1');
  const total = first.meta.pagination.total;
  if (!first.data[0] || total < 2) throw new Error(`${api.base} has ${total} published article(s): seed it first`);
  const tags = await api.json<List>('GET', '/api/tags?sort=name:asc&pagination[page]=1&pagination[pageSize]=2');
  if (tags.data.length < 2) throw new Error(`${api.base} has fewer than 2 tags: seed it first`);
  // the median: about half of the articles carrying either tag pass the views filter
  const middle = await api.json<List>(
    'GET',
    `/api/articles?sort=views:asc&pagination[page]=${Math.floor(total / 2) + 1}&pagination[pageSize]=1`,
  );
  return {
    documentId: first.data[0].documentId as string,
    tags: [tags.data[0].name as string, tags.data[1].name as string],
    viewsGte: Number(middle.data[0]?.views ?? 0),
    articles: total,
  };
}
