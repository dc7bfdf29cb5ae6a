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
  /** the median publishDate (filter-date), categories present (the first most common), views of a few articles */
  dateLt: string;
  categories: string[];
  views: number[];
  /** published articles, up to 100 (the mixed workload's findOnes and writes), and every tag name */
  documentIds: string[];
  allTags: string[];
  /** published articles in the default locale */
  articles: number;
}

type List = { data: Array<Record<string, unknown>>; meta: { pagination: { total: number } } };

/** The value of `field` of the article in the middle when sorted by it. */
async function median(api: Api, field: string, total: number): Promise<unknown> {
  const middle = await api.json<List>(
    'GET',
    `/api/articles?sort=${field}:asc&fields[0]=${field}&pagination[page]=${Math.floor(total / 2) + 1}` +
      '&pagination[pageSize]=1',
  );
  return middle.data[0]?.[field];
}

/** Find a published article, two tags, medians and values present, through the API (fails if the server is empty). */
export async function discoverTargets(api: Api): Promise<Targets> {
  const first = await api.json<List>('GET', '/api/articles?pagination[page]=1&pagination[pageSize]=1');
  const total = first.meta.pagination.total;
  if (!first.data[0] || total < 2) throw new Error(`${api.base} has ${total} published article(s): seed it first`);
  const tags = await api.json<List>('GET', '/api/tags?sort=name:asc&pagination[page]=1&pagination[pageSize]=2');
  if (tags.data.length < 2) throw new Error(`${api.base} has fewer than 2 tags: seed it first`);
  // a sample of 50 articles: the values a frontend would filter on are values the content has
  const sample = await api.json<List>(
    'GET',
    '/api/articles?fields[0]=category&fields[1]=views&pagination[pageSize]=50',
  );
  const counts = new Map<string, number>();
  for (const a of sample.data)
    if (a.category) counts.set(String(a.category), (counts.get(String(a.category)) ?? 0) + 1);
  return {
    documentId: first.data[0].documentId as string,
    tags: [tags.data[0].name as string, tags.data[1].name as string],
    // the median: about half of the articles carrying either tag pass the views filter
    viewsGte: Number((await median(api, 'views', total)) ?? 0),
    dateLt: String(await median(api, 'publishDate', total)),
    categories: [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([c]) => c),
    views: sample.data.slice(0, 10).map((a) => Number(a.views)),
    documentIds: (await api.json<List>('GET', '/api/articles?fields[0]=title&pagination[pageSize]=100')).data.map(
      (a) => a.documentId as string,
    ),
    allTags: (await api.json<List>('GET', '/api/tags?sort=name:asc&pagination[pageSize]=100')).data.map(
      (a) => a.name as string,
    ),
    articles: total,
  };
}
