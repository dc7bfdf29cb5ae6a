/**
 * The blog's demo content, written on its first start (no article yet) so that
 * `GET /api/articles?populate=*` shows a real blog at once. Everything goes through Vellum's
 * own services: pictures through the upload plugin, documents through the document service.
 *
 * A crash part-way never leaves half a blog for good: the documents are written in one
 * transaction (all or nothing), and the pictures uploaded before it are found again by name
 * on the next start, which then writes the documents.
 */
import type { App, DocumentApi } from 'vellum';
import { PICTURES } from './library.ts';
import { demoMedia } from './media.ts';
import { ARTICLE, type DemoCounts, writeDemo } from './write.ts';

const hasArticles = async (docs: (uid: string) => DocumentApi): Promise<boolean> =>
  (await docs(ARTICLE).count({ locale: '*' })) > 0;

/** Fill an empty blog; null when it had articles already (nothing is written then). */
export async function seedDemoContent(app: App): Promise<DemoCounts | null> {
  if (await hasArticles(app.documents)) return null;
  const media = await demoMedia(app, PICTURES);
  const counts = await app.documents.transaction(async (docs, trx) => {
    // two first starts at once (`vellum token` beside `vellum start`, say): the second waits here,
    // then finds the first one's articles
    await app.documents.lock(trx, 'api::global.global');
    return (await hasArticles(docs)) ? null : writeDemo(app, docs, media);
  });
  if (counts) {
    const files = Object.keys(media).length;
    app.log.info({ ...counts, files }, 'demo content created (VELLUM_DEMO_CONTENT=false starts the blog empty)');
  }
  return counts;
}
