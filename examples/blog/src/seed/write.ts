/**
 * The demo's documents, written through the document service inside the seed's transaction:
 * tags and authors (kept when one by that name exists already), the articles in their locales
 * and states, and the `global` single type (kept when set already).
 */
import { type App, type DocumentApi, resolveFilters } from 'vellum';
import { ARTICLES, type ArticleText, type DemoArticle } from './articles.ts';
import { AUTHORS, type AuthorKey, type PictureKey, TAGS, type TagKey } from './library.ts';

type Documents = (uid: string) => DocumentApi;

export const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
const GLOBAL = 'api::global.global';

interface Refs {
  media: Record<PictureKey, number>;
  authors: Record<AuthorKey, string>;
  tags: Record<TagKey, string>;
}

export interface DemoCounts {
  articles: number;
  authors: number;
  tags: number;
}

/** The documentId of the `uid` document whose `name` is `name`, creating it from `data` when there is none. */
async function byName(app: App, docs: Documents, uid: string, data: { name: string } & Record<string, unknown>) {
  const filters = resolveFilters(app.registry, uid, { name: data.name });
  const found = await docs(uid).findFirst({ filters, fields: [] });
  const doc = found ?? (await docs(uid).create({ data, fields: [] }));
  return doc.documentId as string;
}

/** One locale's attributes of an article: its words, and the relations, components and zone that go with them. */
function localized(a: DemoArticle, text: ArticleText, refs: Refs): Record<string, unknown> {
  const { title, slug, summary, body, seo } = text;
  const cover = refs.media[a.cover];
  const gallery = a.gallery.map((key) => refs.media[key]);
  return {
    title,
    slug,
    summary,
    body,
    seo: { ...seo, shareImage: cover, keywords: seo.keywords.map((value) => ({ value })) },
    blocks: [
      { __component: 'shared.rich-text', body: text.richText },
      { __component: 'shared.quote', title, body: text.quote, person: refs.authors[a.quoteBy] },
      { __component: 'shared.media', file: cover },
      ...(gallery.length ? [{ __component: 'shared.slider', files: gallery }] : []),
    ],
    // relations belong to a locale (as in Strapi): each localization names its own
    author: refs.authors[a.author],
    tags: a.tags.map((key) => refs.tags[key]),
  };
}

/** An article in English, then its French localization, each published or left a draft. */
async function writeArticle(docs: Documents, a: DemoArticle, refs: Refs): Promise<void> {
  const shared = { ...a.shared, cover: refs.media[a.cover], gallery: a.gallery.map((key) => refs.media[key]) };
  const data = { ...shared, ...localized(a, a.en, refs) };
  const en = await docs(ARTICLE).create({ locale: 'en', status: a.en.status, data, fields: [] });
  if (!a.fr) return;
  const documentId = en.documentId as string;
  // a locale the document lacks is created by an update in it, starting from the shared attributes
  await docs(ARTICLE).update({ documentId, locale: 'fr', status: a.fr.status, data: localized(a, a.fr, refs) });
}

/** Site-wide settings, unless someone set them already. */
async function writeGlobal(docs: Documents, media: Record<PictureKey, number>): Promise<void> {
  if (await docs(GLOBAL).findFirst({ fields: [] })) return;
  const defaultSeo = {
    metaTitle: 'Vellum Blog',
    metaDescription: 'A demo blog served by Vellum',
    shareImage: media.welcome,
    keywords: [{ value: 'vellum' }, { value: 'headless cms' }],
  };
  const data = {
    siteName: 'Vellum Blog',
    siteDescription: 'Articles about Vellum',
    favicon: media.favicon,
    defaultSeo,
  };
  await docs(GLOBAL).create({ data, fields: [] });
}

/** Write the whole demo with `docs` (the seed's transaction); `media` holds the uploaded pictures' ids. */
export async function writeDemo(app: App, docs: Documents, media: Record<PictureKey, number>): Promise<DemoCounts> {
  const tags = {} as Record<TagKey, string>;
  for (const [key, name] of Object.entries(TAGS) as Array<[TagKey, string]>) {
    tags[key] = await byName(app, docs, TAG, { name });
  }
  const authors = {} as Record<AuthorKey, string>;
  for (const [key, author] of Object.entries(AUTHORS) as Array<[AuthorKey, (typeof AUTHORS)[AuthorKey]]>) {
    authors[key] = await byName(app, docs, AUTHOR, { ...author, avatar: media[author.avatar] });
  }
  const refs = { media, authors, tags };
  for (const article of ARTICLES) await writeArticle(docs, article, refs);
  await writeGlobal(docs, media);
  return { articles: ARTICLES.length, authors: Object.keys(authors).length, tags: Object.keys(tags).length };
}
