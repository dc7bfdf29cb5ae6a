import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type App, createVellumApp, definePlugin, type Plugin } from '../../index.ts';
import { createTestDatabase, type TestDatabase } from '../../database/test-database.ts';
import { BLOG } from '../helpers/app.ts';

/**
 * examples/blog fills an empty database on its first start. The blog itself is started (not a
 * copy: the seed imports Vellum from the repository), its uploads going to a temp folder.
 */
let publicDir: string;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  publicDir = await mkdtemp(path.join(os.tmpdir(), 'vellum-demo-public-'));
});
afterAll(async () => {
  for (const d of databases) await d.drop();
  await rm(publicDir, { recursive: true, force: true });
});

async function freshDatabase(): Promise<string> {
  const database = await createTestDatabase(inject('databaseAdminUrl'));
  databases.push(database);
  return database.url;
}

interface Started {
  app: App;
  url: string;
  logs: Array<{ level: number; msg: string; articles?: number; files?: number; err?: { message: string } }>;
  get(route: string): Promise<any>;
}

/** The blog on `databaseUrl`, listening; what it logged is kept. */
async function startBlog(databaseUrl: string, env: Record<string, string> = {}, plugins: Plugin<unknown>[] = []) {
  const logs: Started['logs'] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const app = await createVellumApp({
    appDir: BLOG,
    env,
    databaseUrl,
    plugins,
    logger: pino({ level: 'info' }, sink),
    // the app's public folder, relative to it as the config has it: the repository's stays untouched
    config: { server: { publicDir: path.relative(BLOG, publicDir) } },
  });
  const { url } = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (route: string) => {
    const res = await fetch(url + route);
    expect(res.status, route).toBe(200);
    return res.json();
  };
  return { app, url, logs, get } satisfies Started;
}

/** How many published articles, drafts, authors, tags and files the blog answers, as anyone reads them. */
async function counts(s: Started) {
  const total = async (route: string) => (await s.get(route)).meta.pagination.total as number;
  return {
    en: await total('/api/articles'),
    fr: await total('/api/articles?locale=fr'),
    enDrafts: await total('/api/articles?status=draft'),
    frDrafts: await total('/api/articles?status=draft&locale=fr'),
    authors: await total('/api/authors'),
    tags: await total('/api/tags'),
    files: ((await s.get('/api/upload/files')) as unknown[]).length,
  };
}

const SEEDED = { en: 4, fr: 2, enDrafts: 5, frDrafts: 3, authors: 3, tags: 5, files: 9 };
const EMPTY = { en: 0, fr: 0, enDrafts: 0, frDrafts: 0, authors: 0, tags: 0, files: 0 };

describe('examples/blog demo content', () => {
  it('fills an empty database on the first start, and a second start adds nothing', async () => {
    const databaseUrl = await freshDatabase();
    const first = await startBlog(databaseUrl);
    try {
      expect(first.logs.find((l) => l.msg.startsWith('demo content created'))).toMatchObject({ articles: 5, files: 9 });
      expect(await counts(first)).toEqual(SEEDED);

      const { data: articles } = await first.get('/api/articles?populate=*&sort=publishDate:asc');
      expect(articles.map((a: { title: string }) => a.title)).toEqual([
        'Welcome to Vellum',
        'Modelling content with components and dynamic zones',
        'Drafts, publishing and locales',
        'Why documents live in JSONB',
      ]);
      for (const article of articles) {
        expect(article.author.name).toEqual(expect.any(String));
        expect(article.tags.length).toBeGreaterThan(0);
        expect(article.seo.metaTitle).toEqual(expect.any(String));
        expect(article.blocks.map((b: { __component: string }) => b.__component)).toContain('shared.quote');
        expect(article).not.toHaveProperty('internalNotes');
        // the cover and its formats are files the server hands out
        for (const image of [article.cover, ...Object.values(article.cover.formats)] as Array<{ url: string }>) {
          const res = await fetch(first.url + image.url);
          expect(res.status, image.url).toBe(200);
          expect(res.headers.get('content-type')).toBe('image/jpeg');
          expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
        }
      }
      const welcome = articles[0];
      expect(welcome.gallery).toHaveLength(3);
      expect(welcome.localizations.map((l: { title: string }) => l.title)).toEqual(['Bienvenue sur Vellum']);

      const { data: french } = await first.get('/api/articles?locale=fr&populate=author&sort=publishDate:asc');
      expect(french.map((a: { title: string }) => a.title)).toEqual([
        'Bienvenue sur Vellum',
        'Brouillons, publication et langues',
      ]);
      // attributes every locale shares were copied to the French version; relations were given to it
      expect(french[0]).toMatchObject({ views: welcome.views, isFeatured: true, author: { name: 'Ada Quill' } });

      const { data: authors } = await first.get('/api/authors?populate=*&sort=name');
      expect(authors.map((a: { name: string }) => a.name)).toEqual(['Ada Quill', 'Bruno Marchetti', 'Chidi Okafor']);
      for (const author of authors) {
        expect((await fetch(first.url + author.avatar.url)).headers.get('content-type')).toBe('image/png');
        expect(author.socials.length).toBeGreaterThan(0);
        expect(author.articles.length).toBeGreaterThan(0);
      }

      const { data: global } = await first.get('/api/global?populate[favicon]=true&populate[defaultSeo][populate]=*');
      expect(global).toMatchObject({ siteName: 'Vellum Blog', favicon: { mime: 'image/png' } });
      expect(global.defaultSeo.shareImage.url).toBe(welcome.cover.url);
    } finally {
      await first.app.destroy();
    }

    const second = await startBlog(databaseUrl);
    try {
      expect(second.logs.some((l) => l.msg.startsWith('demo content created'))).toBe(false);
      expect(await counts(second)).toEqual(SEEDED);
    } finally {
      await second.app.destroy();
    }
  });

  it('a start that fails part-way writes no document; the next writes the whole blog, reusing the files', async () => {
    const databaseUrl = await freshDatabase();
    // the second article fails to be written (its English version is the third create, after the
    // first article's two locales), as a crash would stop the seed there
    let creates = 0;
    const crash = definePlugin({
      name: 'crash-mid-seed',
      register(app) {
        app.documents.use(async (ctx, next) => {
          if (ctx.uid === 'api::article.article' && ctx.action === 'create' && ++creates === 3) {
            throw new Error('the process died here');
          }
          return next();
        });
      },
    });
    const failed = await startBlog(databaseUrl, {}, [crash]);
    try {
      expect(creates).toBe(3);
      const error = failed.logs.find((l) => l.msg.startsWith('the demo content could not be created'));
      expect(error?.err?.message).toBe('the process died here');
      // the app serves all the same, with no half blog: the pictures are in the media library, nothing else
      expect(await counts(failed)).toEqual({ ...EMPTY, files: 9 });
    } finally {
      await failed.app.destroy();
    }

    const next = await startBlog(databaseUrl);
    try {
      expect(await counts(next)).toEqual(SEEDED);
    } finally {
      await next.app.destroy();
    }
  });

  it('VELLUM_DEMO_CONTENT=false starts the blog empty', async () => {
    const empty = await startBlog(await freshDatabase(), { VELLUM_DEMO_CONTENT: 'false' });
    try {
      expect(await counts(empty)).toEqual(EMPTY);
    } finally {
      await empty.app.destroy();
    }
  });
});
