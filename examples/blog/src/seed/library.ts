/** Who and what the demo articles point at: pictures, authors and tags, by key. */
import { avatar, cover, favicon } from './pictures.ts';

export const PICTURES = {
  welcome: cover('demo-cover-welcome.jpg', 262, 'A violet gradient with soft circles over a horizon'),
  components: cover('demo-cover-components.jpg', 190, 'A teal gradient with soft circles over a horizon'),
  drafts: cover('demo-cover-drafts.jpg', 30, 'An orange gradient with soft circles over a horizon'),
  jsonb: cover('demo-cover-jsonb.jpg', 215, 'A blue gradient with soft circles over a horizon'),
  graphql: cover('demo-cover-graphql.jpg', 320, 'A pink gradient with soft circles over a horizon'),
  ada: avatar('demo-avatar-ada.png', 12, 'A smiling face on red'),
  bruno: avatar('demo-avatar-bruno.png', 140, 'A smiling face on green'),
  chidi: avatar('demo-avatar-chidi.png', 45, 'A smiling face on yellow'),
  favicon: favicon('demo-favicon.png', 'A white V on violet'),
};
export type PictureKey = keyof typeof PICTURES;

export const TAGS = {
  vellum: 'Vellum',
  postgres: 'PostgreSQL',
  strapi: 'Strapi',
  tutorial: 'Tutorial',
  release: 'Release notes',
};
export type TagKey = keyof typeof TAGS;

export interface DemoAuthor {
  name: string;
  email: string;
  bio: string;
  avatar: PictureKey;
  address: { street: string; city: string; country: string };
  socials: Array<{ platform: 'twitter' | 'github' | 'mastodon'; url: string }>;
}

export const AUTHORS: Record<'ada' | 'bruno' | 'chidi', DemoAuthor> = {
  ada: {
    name: 'Ada Quill',
    email: 'ada@example.com',
    bio: 'Writes the tutorials. Believes every schema deserves a second draft.',
    avatar: 'ada',
    address: { street: '12 Paper Lane', city: 'London', country: 'United Kingdom' },
    socials: [
      { platform: 'github', url: 'https://github.com/example-ada' },
      { platform: 'mastodon', url: 'https://mastodon.example/@ada' },
    ],
  },
  bruno: {
    name: 'Bruno Marchetti',
    email: 'bruno@example.com',
    bio: 'Keeps the French edition in step with the English one.',
    avatar: 'bruno',
    address: { street: '3 rue des Imprimeurs', city: 'Lyon', country: 'France' },
    socials: [{ platform: 'twitter', url: 'https://twitter.example/bruno' }],
  },
  chidi: {
    name: 'Chidi Okafor',
    email: 'chidi@example.com',
    bio: 'Looks after the database and the benchmarks.',
    avatar: 'chidi',
    address: { street: '8 Marina Road', city: 'Lagos', country: 'Nigeria' },
    socials: [{ platform: 'github', url: 'https://github.com/example-chidi' }],
  },
};
export type AuthorKey = keyof typeof AUTHORS;
