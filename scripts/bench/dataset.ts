/**
 * The blog dataset, generated from a seeded PRNG: the same shapes and proportions as
 * ../shared/reference-strapi/seed.mjs (which seeds the reference Strapi for `--url`
 * comparisons), so both servers answer about comparable content. Payloads refer to what
 * earlier steps created (files, tags, authors) through `Refs`.
 */
import type { Random } from './prng.ts';

export interface Refs {
  mediaIds: number[];
  tagIds: string[];
  authorIds: string[];
}

type Json = Record<string, unknown>;

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore ' +
  'magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat ' +
  'duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint occaecat ' +
  'cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum'
).split(' ');
const ADJ = [
  'Quick',
  'Practical',
  'Modern',
  'Hidden',
  'Complete',
  'Gentle',
  'Advanced',
  'Pragmatic',
  'Curious',
  'Essential',
  'Brief',
  'Honest',
];
const NOUN = [
  'Guide',
  'Notes',
  'Primer',
  'Story',
  'Recipe',
  'Checklist',
  'Journey',
  'Manifesto',
  'Tour',
  'Deep Dive',
  'Overview',
  'Lesson',
];
const TOPIC = [
  'PostgreSQL',
  'TypeScript',
  'Headless CMS',
  'REST APIs',
  'GraphQL',
  'Caching',
  'Testing',
  'Node.js',
  'Koa',
  'Migrations',
  'Search',
  'Images',
];
const FIRST = [
  'Ada',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
  'Donald',
  'Sophie',
  'Alan',
  'Hedy',
  'John',
  'Katherine',
  'Niklaus',
  'Anita',
  'Tim',
  'Joan',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Knuth',
  'Wilson',
  'Turing',
  'Lamarr',
  'Backus',
  'Johnson',
  'Wirth',
  'Borg',
  'Berners-Lee',
  'Clarke',
];
const CITIES = [
  ['Paris', 'France'],
  ['Berlin', 'Germany'],
  ['Lisbon', 'Portugal'],
  ['Montreal', 'Canada'],
  ['Kyoto', 'Japan'],
  ['Austin', 'USA'],
  ['Oslo', 'Norway'],
  ['Nairobi', 'Kenya'],
];
const TAG_WORDS = [
  'javascript',
  'typescript',
  'node',
  'database',
  'postgres',
  'sql',
  'api',
  'rest',
  'graphql',
  'cms',
  'design',
  'testing',
  'devops',
  'security',
  'performance',
  'css',
  'html',
  'react',
  'vue',
  'svelte',
  'rust',
  'go',
  'python',
  'cloud',
  'linux',
  'docker',
  'caching',
  'search',
  'i18n',
  'media',
];
const CATEGORIES = ['news', 'tutorial', 'opinion'];

/** Width and height of the generated images: one large enough for every responsive format, small ones. */
export const MEDIA_SIZES: ReadonlyArray<[number, number]> = [
  [800, 600],
  [300, 200],
  [64, 64],
  [48, 32],
  [120, 90],
  [32, 32],
];

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
const slugify = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Payload builders drawing from `rnd`: call them in a fixed order for a fixed dataset. */
export function createDataset(rnd: Random) {
  const words = (n: number): string => Array.from({ length: n }, () => rnd.pick(WORDS)).join(' ');
  const sentence = (n: number): string => {
    const s = words(n);
    return `${s[0].toUpperCase() + s.slice(1)}.`;
  };

  const blocksBody = (i: number): Json[] => {
    const nodes: Json[] = [
      { type: 'heading', level: 2, children: [{ type: 'text', text: `Part ${i}: ${sentence(4)}` }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: `${sentence(rnd.int(8, 20))} ` },
          { type: 'text', text: words(3), bold: true },
          { type: 'text', text: ' and ' },
          { type: 'link', url: `https://example.com/ref/${i}`, children: [{ type: 'text', text: 'a link' }] },
          { type: 'text', text: '.' },
        ],
      },
      {
        type: 'list',
        format: 'unordered',
        children: [
          { type: 'list-item', children: [{ type: 'text', text: sentence(5) }] },
          { type: 'list-item', children: [{ type: 'text', text: sentence(6), italic: true }] },
        ],
      },
    ];
    if (i % 3 === 0) nodes.push({ type: 'quote', children: [{ type: 'text', text: sentence(9) }] });
    if (i % 4 === 0)
      nodes.push({ type: 'code', language: 'javascript', children: [{ type: 'text', text: `const answer = ${i};` }] });
    nodes.push({ type: 'paragraph', children: [{ type: 'text', text: sentence(rnd.int(10, 30)), code: i % 5 === 0 }] });
    return nodes;
  };

  return {
    /** tag names: the words, then numbered repeats */
    tagName: (t: number): string =>
      t < TAG_WORDS.length
        ? TAG_WORDS[t]
        : `${TAG_WORDS[t % TAG_WORDS.length]}-${Math.floor(t / TAG_WORDS.length) + 1}`,

    /** author `a`: address and 0–3 socials; three in four have an avatar */
    author(a: number, refs: Pick<Refs, 'mediaIds'>): Json {
      const suffix = a >= FIRST.length ? ` ${Math.floor(a / FIRST.length) + 1}` : '';
      const name = `${FIRST[a % FIRST.length]} ${LAST[(a * 7) % LAST.length]}${suffix}`;
      const [city, country] = rnd.pick(CITIES);
      const handle = slugify(name);
      const data: Json = {
        name,
        email: `${handle}@example.com`,
        bio: `${sentence(rnd.int(10, 25))} ${sentence(rnd.int(6, 12))}`,
        address: { street: `${rnd.int(1, 200)} ${rnd.pick(LAST)} Street`, city, country },
        socials: rnd
          .pickN(['twitter', 'github', 'mastodon'], rnd.int(0, 3))
          .map((platform) => ({ platform, url: `https://${platform}.example.com/${handle}` })),
      };
      if (a % 4 !== 3) data.avatar = refs.mediaIds[a % refs.mediaIds.length];
      return data;
    },

    /** article `i` (1-based): every attribute, author, 3 tags, media, seo with keywords, all four zone components */
    article(i: number, refs: Refs): Json {
      const m = (k: number): number => refs.mediaIds[k % refs.mediaIds.length];
      const author = refs.authorIds[(i - 1) % refs.authorIds.length];
      const tags = rnd.pickN(refs.tagIds, 3);
      const quoted = rnd.pick(refs.authorIds);
      const title = `${rnd.pick(ADJ)} ${rnd.pick(NOUN)} to ${rnd.pick(TOPIC)} #${i}`;
      const data: Json = {
        title,
        slug: slugify(title),
        summary: sentence(rnd.int(12, 30)),
        body: blocksBody(i),
        views: rnd.int(0, 50000),
        rating: Math.round(rnd.next() * 50) / 10,
        price: Math.round(rnd.next() * 10000) / 100,
        isFeatured: i % 7 === 0,
        publishDate: `202${rnd.int(3, 6)}-${pad(rnd.int(1, 12))}-${pad(rnd.int(1, 28))}`,
        readingTime: `00:${pad(rnd.int(1, 45))}:00.000`,
        meta: {
          source: 'bench',
          index: i,
          flags: { pinned: i % 11 === 0, legacy: false },
          keywords: rnd.pickN(TAG_WORDS, 2),
          score: Math.round(rnd.next() * 1000) / 10,
        },
        category: CATEGORIES[i % 3],
        contactEmail: `editor+${i}@example.com`,
        internalNotes: `internal note ${i} (must never be returned by the API)`,
        author,
        tags,
        cover: m(i),
        gallery: [m(i + 1), m(i + 2)],
        seo: {
          metaTitle: title.slice(0, 60),
          metaDescription: sentence(rnd.int(8, 16)),
          shareImage: m(i + 3),
          keywords: rnd.pickN(TAG_WORDS, rnd.int(1, 3)).map((value) => ({ value })),
        },
        blocks: [
          {
            __component: 'shared.rich-text',
            body: `## Intro ${i}\n\n${sentence(15)}\n\n- ${words(3)}\n- ${words(4)}\n\n**${words(2)}** _${words(2)}_`,
          },
          { __component: 'shared.quote', title: `Quote ${i}`, body: sentence(12), person: quoted },
          { __component: 'shared.media', file: m(i + 4) },
          { __component: 'shared.slider', files: [m(i), m(i + 5)] },
        ],
      };
      if (i % 9 === 0) (data.blocks as Json[]).reverse(); // vary the zone's order
      if (i % 13 === 0) {
        // some nulls and an absent component, as real content has
        delete data.rating;
        delete data.price;
        delete data.seo;
      }
      return data;
    },

    /** the `fr` localization of article `i` */
    frenchArticle(i: number, title: string, quoted: string): Json {
      const frTitle = `${title} (fr)`;
      return {
        title: frTitle,
        slug: slugify(frTitle),
        summary: `Résumé : ${sentence(10)}`,
        body: [{ type: 'paragraph', children: [{ type: 'text', text: `Article numéro ${i}. ${sentence(12)}` }] }],
        seo: {
          metaTitle: frTitle.slice(0, 60),
          metaDescription: 'Description en français',
          keywords: [{ value: 'français' }],
        },
        blocks: [{ __component: 'shared.quote', title: `Citation ${i}`, body: sentence(8), person: quoted }],
      };
    },
  };
}
