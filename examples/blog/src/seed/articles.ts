/**
 * The demo articles: four published in English, two of them in French too (a third French one
 * is a draft), and one English draft, so drafts, locales and every attribute type show.
 */
import { type Block, code, heading, list, paragraph } from './blocks.ts';
import type { AuthorKey, PictureKey, TagKey } from './library.ts';

/** One locale's words of an article, and whether that locale is published. */
export interface ArticleText {
  status: 'published' | 'draft';
  title: string;
  slug: string;
  summary: string;
  body: Block[];
  seo: { metaTitle: string; metaDescription: string; keywords: string[] };
  /** the dynamic zone: a rich-text (Markdown) item, and a quote by `DemoArticle.quoteBy` */
  richText: string;
  quote: string;
}

export interface DemoArticle {
  author: AuthorKey;
  tags: TagKey[];
  cover: PictureKey;
  /** also the dynamic zone's slider */
  gallery: PictureKey[];
  quoteBy: AuthorKey;
  /** the attributes every locale shares (`localized: false`) */
  shared: {
    views: number;
    rating: number;
    isFeatured: boolean;
    publishDate: string;
    readingTime: string;
    category: 'news' | 'tutorial' | 'opinion';
    contactEmail: string;
    meta: Record<string, unknown>;
    internalNotes: string;
  };
  en: ArticleText;
  fr?: ArticleText;
}

const shared = (s: Partial<DemoArticle['shared']> & Pick<DemoArticle['shared'], 'publishDate' | 'category'>) => ({
  views: 0,
  rating: 4,
  isFeatured: false,
  readingTime: '00:04:00',
  contactEmail: 'editors@example.com',
  meta: { demo: true },
  internalNotes: 'Demo content: private, never in an API answer',
  ...s,
});

export const ARTICLES: DemoArticle[] = [
  {
    author: 'ada',
    tags: ['vellum', 'release'],
    cover: 'welcome',
    gallery: ['components', 'drafts', 'jsonb'],
    quoteBy: 'bruno',
    shared: shared({ views: 1280, rating: 4.8, isFeatured: true, publishDate: '2026-01-05', category: 'news' }),
    en: {
      status: 'published',
      title: 'Welcome to Vellum',
      slug: 'welcome-to-vellum',
      summary: 'A headless CMS with Strapi 5’s API, on PostgreSQL: what this demo blog shows you.',
      body: [
        paragraph('This blog filled itself on its first start, through Vellum’s own document and upload services.'),
        heading('Look around'),
        list([
          'GET /api/articles?populate=* lists the published articles with authors, tags and covers',
          'add ?locale=fr for the French edition, ?status=draft for the drafts',
          'GET /api/global?populate=* holds the site-wide settings',
        ]),
        paragraph('Delete the database folder (.data) to start again, or set VELLUM_DEMO_CONTENT=false.'),
      ],
      seo: { metaTitle: 'Welcome to Vellum', metaDescription: 'The demo blog.', keywords: ['vellum', 'cms'] },
      richText: 'Every document is **one JSONB row**; every read is *one SQL statement*.',
      quote: 'Copy your schema files over, point your frontend here, get the same answers.',
    },
    fr: {
      status: 'published',
      title: 'Bienvenue sur Vellum',
      slug: 'bienvenue-sur-vellum',
      summary: 'Un CMS headless avec l’API de Strapi 5, sur PostgreSQL : ce que montre ce blog de démonstration.',
      body: [
        paragraph('Ce blog s’est rempli tout seul au premier démarrage, par les services de documents et d’upload.'),
        heading('Faites le tour'),
        list(['GET /api/articles?populate=*&locale=fr liste les articles publiés en français']),
      ],
      seo: { metaTitle: 'Bienvenue sur Vellum', metaDescription: 'Le blog de démonstration.', keywords: ['vellum'] },
      richText: 'Chaque document est **une ligne JSONB** ; chaque lecture, *une requête SQL*.',
      quote: 'Copiez vos schémas, pointez votre frontend ici : mêmes réponses.',
    },
  },
  {
    author: 'ada',
    tags: ['tutorial', 'strapi'],
    cover: 'components',
    gallery: ['welcome'],
    quoteBy: 'ada',
    shared: shared({
      views: 640,
      rating: 4.5,
      publishDate: '2026-01-19',
      category: 'tutorial',
      readingTime: '00:07:30',
    }),
    en: {
      status: 'published',
      title: 'Modelling content with components and dynamic zones',
      slug: 'components-and-dynamic-zones',
      summary: 'Repeatable SEO keywords, an address, a zone of rich text, quotes and sliders.',
      body: [
        paragraph('A component is a group of fields reused across types; a dynamic zone is a list of them.'),
        code('GET /api/articles?populate[blocks][on][shared.quote][populate]=person', 'http'),
      ],
      seo: { metaTitle: 'Components', metaDescription: 'Components and zones.', keywords: ['components', 'zones'] },
      richText: 'Use `populate[blocks][on][<component>]` to shape each kind of item.',
      quote: 'Model once, reuse everywhere.',
    },
    fr: {
      status: 'draft',
      title: 'Modéliser son contenu : composants et zones dynamiques',
      slug: 'composants-et-zones-dynamiques',
      summary: 'Mots-clés SEO répétables, une adresse, une zone de texte riche, de citations et de diaporamas.',
      body: [paragraph('Traduction en cours : cette version est un brouillon, absent des réponses publiées.')],
      seo: { metaTitle: 'Composants', metaDescription: 'Composants et zones.', keywords: ['composants'] },
      richText: 'Brouillon.',
      quote: 'Modéliser une fois, réutiliser partout.',
    },
  },
  {
    author: 'bruno',
    tags: ['tutorial'],
    cover: 'drafts',
    gallery: ['welcome', 'components'],
    quoteBy: 'ada',
    shared: shared({ views: 410, rating: 4.2, publishDate: '2026-02-02', category: 'tutorial' }),
    en: {
      status: 'published',
      title: 'Drafts, publishing and locales',
      slug: 'drafts-publishing-and-locales',
      summary: 'Every document has a draft; publishing copies it. Each locale is published on its own.',
      body: [
        paragraph('Write to the draft, then POST /api/articles/:documentId/actions/publish.'),
        paragraph('Views, rating and the cover are shared by every locale; titles and bodies are not.'),
      ],
      seo: { metaTitle: 'Drafts and locales', metaDescription: 'Draft & publish, i18n.', keywords: ['i18n'] },
      richText: 'Try `?status=draft` and `?locale=fr`.',
      quote: 'Publish when it is ready, in each language when it is ready.',
    },
    fr: {
      status: 'published',
      title: 'Brouillons, publication et langues',
      slug: 'brouillons-publication-et-langues',
      summary: 'Chaque document a un brouillon ; publier le copie. Chaque langue se publie séparément.',
      body: [paragraph('Les vues, la note et l’image de couverture sont communes à toutes les langues.')],
      seo: { metaTitle: 'Brouillons et langues', metaDescription: 'Publication, i18n.', keywords: ['i18n'] },
      richText: 'Essayez `?status=draft` et `?locale=fr`.',
      quote: 'Publier quand c’est prêt, dans chaque langue.',
    },
  },
  {
    author: 'chidi',
    tags: ['postgres', 'vellum'],
    cover: 'jsonb',
    gallery: [],
    quoteBy: 'chidi',
    shared: shared({
      views: 975,
      rating: 4.9,
      publishDate: '2026-02-16',
      category: 'opinion',
      readingTime: '00:09:00',
    }),
    en: {
      status: 'published',
      title: 'Why documents live in JSONB',
      slug: 'why-documents-live-in-jsonb',
      summary: 'One row per version, relations as documentIds, every read one statement.',
      body: [
        paragraph('A table per content type, the attributes in one JSONB column, indexed with GIN.'),
        paragraph('PostgreSQL builds the whole answer, populate and all, in a single statement.'),
      ],
      seo: { metaTitle: 'JSONB', metaDescription: 'The storage model.', keywords: ['postgresql', 'jsonb'] },
      richText: 'See DESIGN.md, *Storage: documents as JSONB rows*.',
      quote: 'The fastest query is the one you only send once.',
    },
  },
  {
    author: 'chidi',
    tags: ['vellum', 'release'],
    cover: 'graphql',
    gallery: [],
    quoteBy: 'ada',
    shared: shared({ publishDate: '2026-03-02', category: 'news', rating: 0 }),
    en: {
      status: 'draft',
      title: 'Coming next: GraphQL',
      slug: 'coming-next-graphql',
      summary: 'A draft: the GraphQL plugin will add its playground to the start banner.',
      body: [paragraph('Not published yet: only ?status=draft shows this article.')],
      seo: { metaTitle: 'GraphQL', metaDescription: 'What comes next.', keywords: ['graphql'] },
      richText: 'Same document service, same query engine.',
      quote: 'One engine, two APIs.',
    },
  },
];
