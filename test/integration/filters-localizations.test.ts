/**
 * Filtering through `localizations` (Strapi's): a document matches when one of its other
 * locales, in the read's status, matches the inner filter; its own locale never counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { readsDocuments } from '../helpers/plans.ts';

let t: TestApp;
let both: string; // en "L10n-A", fr "L10n-B" (published and draft)
let draftFr: string; // en "L10n-X" published; fr "L10n-Brouillon" as a draft only
let alone: string; // en "L10n-Alone" only

const create = async (title: string): Promise<string> => {
  const res = await t.request('POST', '/api/articles', { data: { title } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.documentId;
};

beforeAll(async () => {
  // statements are counted: no answer from the response cache
  t = await startApp({ env: { RESPONSE_CACHE: 'false' } });
  both = await create('L10n-A');
  expect((await t.request('PUT', `/api/articles/${both}?locale=fr`, { data: { title: 'L10n-B' } })).status).toBe(200);
  draftFr = await create('L10n-X');
  const draft = await t.request('PUT', `/api/articles/${draftFr}?locale=fr&status=draft`, {
    data: { title: 'L10n-Brouillon' },
  });
  expect(draft.status).toBe(200);
  alone = await create('L10n-Alone');
});
afterAll(async () => {
  await t?.close();
});

/** The documentIds (and locales) a GET of articles answers. */
async function found(query: string): Promise<Array<[string, string]>> {
  const res = await t.request('GET', `/api/articles?${query}&pagination[pageSize]=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((d: { documentId: string; locale: string }) => [d.documentId, d.locale]);
}

describe('filters[localizations]', () => {
  it('matches a document through another locale, never through its own', async () => {
    expect(await found('locale=en&filters[localizations][title][$eq]=L10n-B')).toEqual([[both, 'en']]);
    expect(await found('locale=en&filters[localizations][title][$eq]=L10n-A')).toEqual([]);
    expect(await found('locale=fr&filters[localizations][title][$eq]=L10n-A')).toEqual([[both, 'fr']]);
    expect(await found('locale=fr&filters[localizations][title][$eq]=L10n-B')).toEqual([]);
    expect(await found('locale=en&filters[localizations][title][$startsWith]=L10n-')).toEqual([[both, 'en']]);
  });

  it('reads the other locales in the read status', async () => {
    expect(await found('locale=en&filters[localizations][title][$eq]=L10n-Brouillon')).toEqual([]);
    expect(await found('locale=en&status=draft&filters[localizations][title][$eq]=L10n-Brouillon')).toEqual([
      [draftFr, 'en'],
    ]);
  });

  it('combines with $or and $not, and tests presence like a relation', async () => {
    const mine = [both, draftFr, alone].map((id, i) => `filters[documentId][$in][${i}]=${id}`).join('&');
    const ids = async (q: string) => (await found(`locale=en&${mine}&${q}&sort=title`)).map(([id]) => id);
    expect(await ids('filters[$or][0][localizations][title][$eq]=L10n-B&filters[$or][1][title][$eq]=L10n-X')).toEqual([
      both,
      draftFr,
    ]);
    expect(await ids('filters[$not][localizations][title][$eq]=L10n-B')).toEqual([alone, draftFr]);
    // published reads: only `both` has another published locale
    expect(await ids('filters[localizations][$null]=true')).toEqual([alone, draftFr]);
    expect(await ids('filters[localizations][id][$notNull]=true')).toEqual([both]);
    expect(await ids('status=draft&filters[localizations][$notNull]=true')).toEqual([both, draftFr]);
    // a null row matches as Strapi's LEFT JOIN reads it: nothing in another locale, or no summary there
    expect(await ids('filters[localizations][summary][$null]=true')).toEqual([both, alone, draftFr]);
  });

  it('refuses the key on a type that is not localized, and in sort', async () => {
    const tags = await t.request('GET', '/api/tags?filters[localizations][name][$eq]=x');
    expect(tags.status).toBe(400);
    expect(tags.body.error.message).toBe('Invalid key localizations');
    const sort = await t.request('GET', '/api/articles?sort=localizations.title');
    expect(sort.status).toBe(400);
  });

  it('is one statement, a correlated EXISTS on the same table with every name quoted', async () => {
    t.queries.length = 0;
    expect(await found('locale=en&filters[localizations][title][$eq]=L10n-B')).toEqual([[both, 'en']]);
    const statements = t.queries.filter((q) => readsDocuments(q) && q.includes('"articles"'));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain(
      'EXISTS (SELECT 1 FROM "articles" AS "_vf1" WHERE "_vf1"."document_id" = "m"."document_id" ' +
        'AND "_vf1"."locale" IS DISTINCT FROM "m"."locale" AND "_vf1"."published_at" IS NOT NULL',
    );
  });
});
