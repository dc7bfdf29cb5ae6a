/**
 * A document's cached answer through a relation, kept while other documents of its type are
 * written (cache/document-keys.ts), is still never stale: every write of another document that
 * changes what the relation shows touches this document (an exclusive target taken away) or the
 * owners' type (a write through an inverse side), and the next read shows it.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startApp, type TestApp, type TestResponse } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ appDir: path.join(ROOT, 'test/fixtures/relations'), env: { RESPONSE_CACHE: 'true' } });
});
afterAll(async () => {
  await t?.close();
});

/** GET twice: the second answer must come from the cache. */
async function cached(url: string): Promise<TestResponse> {
  const first = await t.request('GET', url);
  expect(first.status, first.text).toBe(200);
  const second = await t.request('GET', url);
  expect(second.headers.get('x-cache'), url).toBe('hit');
  return second;
}
const create = async (collection: string, data: Record<string, unknown>): Promise<string> => {
  const res = await t.request('POST', `/api/${collection}`, { data });
  expect(res.status, res.text).toBe(201);
  return res.body.data.documentId;
};
const ids = (docs: Array<{ documentId: string }>): string[] => docs.map((d) => d.documentId).sort();

describe('a cached answer through a relation', () => {
  it('is kept while another document of its type is written without changing it', async () => {
    const passport = await create('passports', { number: 'K-1' });
    const p1 = await create('people', { name: 'Kept', passport });
    const p2 = await create('people', { name: 'Other' });
    const url = `/api/people/${p1}?populate=passport`;
    await cached(url);
    expect((await t.request('PUT', `/api/people/${p2}`, { data: { name: 'Other 2' } })).status).toBe(200);
    const again = await t.request('GET', url);
    expect([again.headers.get('x-cache'), again.body.data.passport.documentId]).toEqual(['hit', passport]);
  });

  it('shows a one-to-one target taken by another document of its type (the owning side)', async () => {
    const passport = await create('passports', { number: 'P-1' });
    const p1 = await create('people', { name: 'Holder', passport });
    const p2 = await create('people', { name: 'Taker' });
    const url = `/api/people/${p1}?populate=passport`;
    expect((await cached(url)).body.data.passport.documentId).toBe(passport);
    // p2 takes the passport: p1's row is written by p2's write
    expect((await t.request('PUT', `/api/people/${p2}`, { data: { passport } })).status).toBe(200);
    expect((await t.request('GET', url)).body.data.passport).toBeNull();
    expect((await t.request('GET', `/api/people/${p2}?populate=passport`)).body.data.passport.documentId).toBe(
      passport,
    );
  });

  it('shows a one-to-many target taken by another document of its type', async () => {
    const [a, b] = [await create('players', { name: 'A' }), await create('players', { name: 'B' })];
    const t1 = await create('teams', { name: 'One', players: [a, b] });
    const t2 = await create('teams', { name: 'Two' });
    const url = `/api/teams/${t1}?populate=players`;
    expect(ids((await cached(url)).body.data.players)).toEqual([a, b].sort());
    expect((await t.request('PUT', `/api/teams/${t2}`, { data: { players: [a] } })).status).toBe(200);
    expect(ids((await t.request('GET', url)).body.data.players)).toEqual([b]);
  });

  it('shows an owner moved by a write through the inverse side, on both owners', async () => {
    const passport = await create('passports', { number: 'I-1' });
    const p1 = await create('people', { name: 'Before', passport });
    const p2 = await create('people', { name: 'After' });
    const first = `/api/people/${p1}?populate=passport`;
    const second = `/api/people/${p2}?populate=passport`;
    await cached(first);
    expect((await cached(second)).body.data.passport).toBeNull();
    // the passport names its new holder: both people's rows change, neither is the document written
    expect((await t.request('PUT', `/api/passports/${passport}`, { data: { holder: p2 } })).status).toBe(200);
    expect((await t.request('GET', first)).body.data.passport).toBeNull();
    expect((await t.request('GET', second)).body.data.passport.documentId).toBe(passport);
  });

  it('shows a relation emptied by the deletion of its target', async () => {
    const passport = await create('passports', { number: 'D-1' });
    const p1 = await create('people', { name: 'Bereft', passport });
    const url = `/api/people/${p1}?populate=passport`;
    await cached(url);
    expect((await t.request('DELETE', `/api/passports/${passport}`)).status).toBe(204);
    expect((await t.request('GET', url)).body.data.passport).toBeNull();
  });
});
