/**
 * Relations and locales on the i18n fixture (a localized page with draft & publish, a localized
 * topic without, locales en, fr and de): relations copied into a new localization, the order of
 * a localized inverse side, and relations read with `locale=*`. Every expected answer is what
 * Strapi 5.54 answered to the same requests on the same schemas.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ROOT, startApp } from '../helpers/app.ts';

const FIXTURE = path.join(ROOT, 'test/fixtures/i18n');

type Doc = Record<string, any>;

let t: TestApp;
beforeAll(async () => {
  const i18n = { config: { locales: ['en', 'fr', 'de'], defaultLocale: 'en' } };
  t = await startApp({ appDir: FIXTURE, config: { plugins: { i18n } } });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const create = async (plural: string, data: Doc, query = ''): Promise<string> => {
  const res = await t.request('POST', `/api/${plural}${query}`, { data });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.documentId;
};
const put = async (plural: string, documentId: string, data: Doc, query = ''): Promise<Doc> => {
  const res = await t.request('PUT', `/api/${plural}/${documentId}${query}`, { data });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
/** A topic in en and fr (or only the locales given). */
const topic = async (name: string, locales = ['en', 'fr']): Promise<string> => {
  const id = await create('topics', { name: `${name} ${locales[0]}` }, `?locale=${locales[0]}`);
  for (const locale of locales.slice(1)) await put('topics', id, { name: `${name} ${locale}` }, `?locale=${locale}`);
  return id;
};
const locales = async (documentId: string): Promise<string[]> =>
  (await t.sql('pages').select('locale').where('document_id', documentId).orderBy(['locale', 'id'])).map(
    (r) => r.locale,
  );

describe('a new localization copies the relations of its shared components (Strapi 5.54)', () => {
  const missingIn = (documentId: string, locale: string) => ({
    status: 400,
    body: {
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        details: {},
        message: `Document with id "${documentId}", locale "${locale}" not found`,
      },
    },
  });

  it('refuses it when a copied relation targets a document without that locale, writing nothing', async () => {
    const both = await topic(`both-${++counter}`);
    const enOnly = await topic(`en-only-${counter}`, ['en']);
    const links = { label: 'l', featured: enOnly, related: [both] };
    const page = await create('pages', { title: 'P en', code: 'c1', links });
    const res = await t.request('PUT', `/api/pages/${page}?locale=fr`, { data: { title: 'P fr' } });
    expect({ status: res.status, body: res.body }).toEqual(missingIn(enOnly, 'fr'));
    expect(await locales(page)).toEqual(['en', 'en']);
    expect((await t.request('GET', `/api/pages/${page}?locale=fr&status=draft`)).status).toBe(404);
  });

  it('names the first target missing, in a to-many relation and a dynamic zone, in the locale asked for', async () => {
    const both = await topic(`both-${++counter}`);
    const enOnly = await topic(`en-only-${counter}`, ['en']);
    const links = { label: 'x', featured: both, related: [both, enOnly] };
    const inList = await create('pages', { title: 'P3 en', links });
    const res = await t.request('PUT', `/api/pages/${inList}?locale=fr`, { data: { title: 'P3 fr' } });
    expect({ status: res.status, body: res.body }).toEqual(missingIn(enOnly, 'fr'));
    const blocks = [{ __component: 'nav.links', label: 'b', related: [enOnly] }];
    const inZone = await create('pages', { title: 'P4 en', blocks });
    const zone = await t.request('PUT', `/api/pages/${inZone}?locale=fr&status=draft`, { data: { title: 'P4 fr' } });
    expect({ status: zone.status, body: zone.body }).toEqual(missingIn(enOnly, 'fr'));
    // the fr version of `both` does not help in de
    const de = await t.request('PUT', `/api/pages/${inList}?locale=de`, { data: { title: 'P3 de' } });
    expect({ status: de.status, body: de.body }).toEqual(missingIn(both, 'de'));
    expect(await locales(inList)).toEqual(['en', 'en']);
    expect(await locales(inZone)).toEqual(['en', 'en']);
  });

  it('copies them when every target has a version in that locale, resolved in that locale', async () => {
    const both = await topic(`both-${++counter}`);
    const page = await create('pages', { title: 'P5 en', links: { label: 'x', featured: both, related: [both] } });
    await put('pages', page, { title: 'P5 fr' }, '?locale=fr');
    const fr = await t.request('GET', `/api/pages/${page}?locale=fr&populate[links][populate]=*`);
    const featured = { documentId: both, locale: 'fr', name: `both-${counter} fr` };
    expect(fr.body.data.links).toMatchObject({ label: 'x', featured });
    expect(fr.body.data.links.related.map((d: Doc) => [d.documentId, d.locale])).toEqual([[both, 'fr']]);
  });

  it('does not copy top-level relations, even one marked i18n.localized: false (always localized)', async () => {
    const enOnly = await topic(`en-only-${++counter}`, ['en']);
    const page = await create('pages', { title: 'P2 en', mainTopic: enOnly, topics: [enOnly] });
    const fr = await put('pages', page, { title: 'P2 fr' }, '?locale=fr&populate=*');
    expect(fr).toMatchObject({ locale: 'fr', code: null, topics: [], links: null, blocks: [], mainTopic: null });
    expect(fr.localizations.map((d: Doc) => d.locale)).toEqual(['en']);
    // and a write of one in fr leaves en alone
    const frTopic = await topic(`fr-${counter}`, ['fr']);
    await put('pages', page, { mainTopic: frTopic }, '?locale=fr');
    const en = await t.request('GET', `/api/pages/${page}?populate[0]=mainTopic`);
    expect(en.body.data.mainTopic.documentId).toBe(enOnly);
  });
});

describe('order of a localized inverse side (topic.pages, Strapi 5.54)', () => {
  it('is kept per locale, and positions through the inverse side apply to that locale only', async () => {
    const T = await topic(`T-${++counter}`);
    const U = await topic(`U-${counter}`);
    const page = async (name: string): Promise<string> => {
      const id = await create('pages', { title: `${name} en` });
      await put('pages', id, { title: `${name} fr` }, '?locale=fr');
      return id;
    };
    const [p, q, s] = [await page('p'), await page('q'), await page('s')];
    await put('pages', p, { topics: [T] });
    await put('pages', q, { topics: [T, U] });
    await put('pages', q, { topics: [T] }, '?locale=fr');
    await put('pages', p, { topics: [U, T] }, '?locale=fr');
    const pagesOf = async (query: string): Promise<string[]> =>
      (await t.request('GET', `/api/topics/${T}?populate[0]=pages${query}`)).body.data.pages.map((d: Doc) => d.title);
    expect(await pagesOf('')).toEqual(['p en', 'q en']);
    expect(await pagesOf('&locale=fr')).toEqual(['q fr', 'p fr']);

    const connect = [
      { documentId: s, position: { start: true } },
      { documentId: p, position: { before: s } },
    ];
    await put('topics', T, { pages: { connect } }, '?locale=fr');
    expect(await pagesOf('')).toEqual(['p en', 'q en']);
    // Strapi's draft order; its published order differs (README: Where Vellum differs)
    expect(await pagesOf('&locale=fr&status=draft')).toEqual(['p fr', 's fr', 'q fr']);
    expect(await pagesOf('&locale=fr')).toEqual(['p fr', 's fr', 'q fr']);

    // locale=*: every published version once, by id, each with its relations in its own locale
    const all = await t.request(
      'GET',
      `/api/pages?locale=*&fields[0]=title&populate[topics][fields][0]=name` +
        `&filters[documentId][$in][0]=${p}&filters[documentId][$in][1]=${q}&filters[documentId][$in][2]=${s}`,
    );
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: Doc) => [d.title, d.topics.map((x: Doc) => x.name)])).toEqual([
      ['s en', []],
      ['s fr', [`T-${counter} fr`]],
      ['p en', [`T-${counter} en`]],
      ['q en', [`T-${counter} en`, `U-${counter} en`]],
      ['q fr', [`T-${counter} fr`]],
      ['p fr', [`U-${counter} fr`, `T-${counter} fr`]],
    ]);
    expect(all.body.meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 6 });
    const topics = await t.request(
      'GET',
      `/api/topics?locale=*&fields[0]=name&populate[pages][fields][0]=title&filters[documentId][$eq]=${T}`,
    );
    expect(topics.body.data.map((d: Doc) => [d.name, d.pages.map((x: Doc) => x.title)])).toEqual([
      [`T-${counter} en`, ['p en', 'q en']],
      [`T-${counter} fr`, ['p fr', 's fr', 'q fr']],
    ]);
  });
});
