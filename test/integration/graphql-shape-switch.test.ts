/**
 * The GraphQL shape is only which schema is built at start: an app serving Strapi 5's flat shape
 * on the database an entity-shape app wrote answers REST the same, leaves every row as it was,
 * and reads the same documents through GraphQL.
 */
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVellumApp, type App } from '../../index.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';

const ARTICLE = 'api::article.article';
const TABLES = ['articles', 'authors', 'tags', 'globals'];

let t: TestApp;
let flat: App;
let flatUrl: string;

const rows = async () =>
  Object.fromEntries(await Promise.all(TABLES.map(async (n) => [n, await t.sql(n).orderBy('id')])));

beforeAll(async () => {
  t = await startApp();
  const ada = (await t.request('POST', '/api/authors', { data: { name: 'Ada' } })).body.data.documentId;
  await t.request('POST', '/api/tags', { data: { name: 'news' } });
  await t.request('POST', '/api/articles', { data: { title: 'One', views: 3, author: ada, seo: { metaTitle: 'm' } } });
  await t.app.documents(ARTICLE).create({ data: { title: 'Draft' } });
});
afterAll(async () => {
  await flat?.destroy();
  await t?.close();
});

describe('switching the GraphQL shape', () => {
  it('changes no stored data and no REST answer', async () => {
    const before = await rows();
    flat = await createVellumApp({
      appDir: BLOG,
      databaseUrl: t.database.url,
      env: { ...process.env, VELLUM_DEMO_CONTENT: 'false' },
      logger: pino({ level: 'silent' }),
      config: { plugins: { graphql: { config: { shape: 'flat' } } } },
    });
    flatUrl = (await flat.listen({ port: 0, host: '127.0.0.1' })).url;
    expect(await rows()).toEqual(before);
    for (const path of [
      '/api/articles?populate=*',
      '/api/authors?populate=articles',
      '/api/tags',
      '/api/articles?status=draft',
    ]) {
      const entityAnswer = await (await fetch(t.url + path)).json();
      const flatAnswer = await (await fetch(flatUrl + path)).json();
      expect(flatAnswer, path).toEqual(entityAnswer);
    }
  });

  it('reads the same documents in both shapes', async () => {
    const entity = await (
      await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: '{ articles { data { id attributes { title author { data { attributes { name } } } } } } }',
        }),
      })
    ).json();
    const flatAnswer = await (
      await fetch(`${flatUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ articles { documentId title author { name } } }' }),
      })
    ).json();
    const fromEntity = entity.data.articles.data.map(
      (a: { id: string; attributes: { title: string; author: { data: { attributes: { name: string } } } } }) => ({
        documentId: a.id,
        title: a.attributes.title,
        author: { name: a.attributes.author.data.attributes.name },
      }),
    );
    expect(flatAnswer.data.articles).toEqual(fromEntity);
    expect(fromEntity).toHaveLength(1);
  });
});
