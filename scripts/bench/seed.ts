/**
 * Seed the blog dataset through the server's public REST API only (uploads through
 * multipart POST /api/upload), as a client would: what is measured afterwards is exactly what
 * the API wrote. Payloads are drawn in a fixed order before sending, so the content is the
 * same on every run although requests run concurrently.
 */
import type { Api } from './http.ts';
import { mapLimit } from '../../core/map-limit.ts';
import { createRandom } from './prng.ts';
import { createDataset, MEDIA_SIZES, type Refs } from './dataset.ts';
import { makePng } from './png.ts';

export interface SeedCounts {
  media: number;
  tags: number;
  authors: number;
  articles: number;
}

export interface SeedResult {
  counts: SeedCounts & { drafts: number; localizations: number };
  requests: number;
  seconds: number;
}

export const DEFAULT_COUNTS: SeedCounts = { media: 6, tags: 30, authors: 20, articles: 1000 };

/** In flight at once: enough to keep a 2-core server busy, few enough not to queue on its pool. */
const CONCURRENCY = 8;
/** As seed.mjs: every 10th article stays a draft, articles 1, 21, 41… get a `fr` localization. */
const DRAFT_EVERY = 10;
const FR_EVERY = 20;

type Created = { data: { id: number; documentId: string } };

/** Articles per progress report: the rate per block shows whether a create gets slower as tables grow. */
export const PROGRESS_EVERY = 1000;

/** Called after every PROGRESS_EVERY articles (and the last one): how many so far, and the seconds the block took. */
export type SeedProgress = (done: number, blockSeconds: number) => void;

/**
 * Create files, tags, authors, articles (with drafts and `fr` localizations) and the global single
 * type; `onProgress` hears about every block of articles.
 */
export async function seedBlog(
  api: Api,
  counts: SeedCounts = DEFAULT_COUNTS,
  seed = 42,
  onProgress?: SeedProgress,
): Promise<SeedResult> {
  const started = performance.now();
  const ds = createDataset(createRandom(seed));
  let requests = 0;
  const call = <T>(p: Promise<T>): Promise<T> => {
    requests++;
    return p;
  };

  const upload = async (m: number): Promise<number> => {
    const [w, h] = MEDIA_SIZES[m % MEDIA_SIZES.length];
    const form = new FormData();
    form.append(
      'files',
      new Blob([new Uint8Array(await makePng(w, h, m + 1))], { type: 'image/png' }),
      `bench-image-${m + 1}.png`,
    );
    form.append(
      'fileInfo',
      JSON.stringify({ alternativeText: `Generated image ${m + 1}`, caption: `Bench image ${m + 1} (${w}x${h})` }),
    );
    const files = await call(api.form<Array<{ id: number }>>('/api/upload', form));
    return files[0].id;
  };
  // the first upload alone: Strapi creates its uploads folder on the first one, and concurrent
  // first uploads race to create it (a unique violation, answered 500)
  const first = counts.media > 0 ? [await upload(0)] : [];
  const mediaIds = [
    ...first,
    ...(await mapLimit(
      Array.from({ length: Math.max(0, counts.media - 1) }, (_, m) => m + 1),
      CONCURRENCY,
      upload,
    )),
  ];

  const tagIds = await mapLimit(
    Array.from({ length: counts.tags }, (_, t) => ds.tagName(t)),
    CONCURRENCY,
    async (name) => (await call(api.json<Created>('POST', '/api/tags', { data: { name } }))).data.documentId,
  );

  const authorPayloads = Array.from({ length: counts.authors }, (_, a) => ds.author(a, { mediaIds }));
  const authorIds = await mapLimit(
    authorPayloads,
    CONCURRENCY,
    async (data) => (await call(api.json<Created>('POST', '/api/authors', { data }))).data.documentId,
  );

  const refs: Refs = { mediaIds, tagIds, authorIds };
  // Each payload is drawn when a worker takes its index, not all beforehand: drawing 100k at once
  // kept the event loop busy for seconds, long enough for the server to close the idle keep-alive
  // connections under the client, whose next POST then failed ("other side closed"). The draws
  // stay in index order (mapLimit takes indexes in order and calls synchronously up to an await),
  // so the dataset is the same.
  const article = (i: number) => {
    const data = ds.article(i, refs);
    const quote = (data.blocks as Array<Record<string, unknown>>).find((b) => b.__component === 'shared.quote');
    const fr =
      i % FR_EVERY === 1 % FR_EVERY ? ds.frenchArticle(i, data.title as string, quote?.person as string) : null;
    return { data, fr, draft: i % DRAFT_EVERY === 0 };
  };
  const indexes = Array.from({ length: counts.articles }, (_, k) => k + 1);
  let done = 0;
  let block = performance.now();
  await mapLimit(indexes, CONCURRENCY, async (i) => {
    const { data, fr, draft } = article(i);
    const status = draft ? '?status=draft' : '';
    const created = await call(api.json<Created>('POST', `/api/articles${status}`, { data }));
    if (fr)
      await call(
        api.json('PUT', `/api/articles/${created.data.documentId}?locale=fr${draft ? '&status=draft' : ''}`, {
          data: fr,
        }),
      );
    if (++done % PROGRESS_EVERY === 0 || done === indexes.length) {
      onProgress?.(done, (performance.now() - block) / 1000);
      block = performance.now();
    }
  });

  await call(
    api.json('PUT', '/api/global', {
      data: {
        siteName: 'Bench Blog',
        siteDescription: 'The dataset of npm run bench',
        favicon: mediaIds[mediaIds.length - 1],
        defaultSeo: {
          metaTitle: 'Bench Blog',
          metaDescription: 'A blog to measure',
          shareImage: mediaIds[0],
          keywords: [{ value: 'cms' }, { value: 'blog' }],
        },
      },
    }),
  );

  return {
    counts: {
      ...counts,
      drafts: indexes.filter((i) => i % DRAFT_EVERY === 0).length,
      localizations: indexes.filter((i) => i % FR_EVERY === 1 % FR_EVERY).length,
    },
    requests,
    seconds: (performance.now() - started) / 1000,
  };
}
