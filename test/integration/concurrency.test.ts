/**
 * Concurrent writes through the REST API and the document service: writers to one document
 * serialize (no deadlock between locales, one winner for a new localization or a single
 * type's first PUT), a relation target cannot be deleted under a write that points at it, and
 * the deadlocks and serialization failures left are retried, then answered 409, never 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp, TestResponse } from '../../testing.ts';
import { isAppError } from '../../core/errors.ts';
import { startApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startApp(); // the blog: articles localized (en, fr) with draft & publish
});
afterAll(async () => {
  await t?.close();
});

const AUTHOR = 'api::author.author';

const statuses = (responses: TestResponse[]): number[] => responses.map((r) => r.status);
const bodies = (responses: TestResponse[]): string => JSON.stringify(responses.filter((r) => r.status >= 300).map((r) => r.body));

async function article(data: Record<string, unknown>, query = ''): Promise<string> {
  const res = await t.request('POST', `/api/articles${query}`, { data });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.documentId;
}

describe('deadlocks and serialization failures', () => {
  /** A promise and its resolver: lets two transactions meet at a point. */
  const signal = () => {
    let done!: () => void;
    const reached = new Promise<void>((resolve) => { done = resolve; });
    return { reached, done };
  };

  it('are retried: two transactions writing two documents in opposite orders both commit', async () => {
    const a = (await t.request('POST', '/api/authors', { data: { name: 'Left' } })).body.data.documentId;
    const b = (await t.request('POST', '/api/authors', { data: { name: 'Right' } })).body.data.documentId;
    const first = [signal(), signal()];
    let attempts = 0;
    const crossing = (side: 0 | 1, one: string, other: string) => t.app.documents.transaction(async (documents) => {
      attempts++;
      await documents(AUTHOR).update({ documentId: one, data: { bio: `first by ${side}` } });
      // the first attempts meet here holding one lock each, then ask for each other's
      first[side].done();
      await first[1 - side].reached;
      await documents(AUTHOR).update({ documentId: other, data: { bio: `second by ${side}` } });
      return side;
    });
    expect(await Promise.all([crossing(0, a, b), crossing(1, b, a)])).toEqual([0, 1]);
    expect(attempts).toBe(3); // PostgreSQL broke the deadlock by failing one of them, which ran again
    // the one that ran again wrote last, both documents
    const bio = async (id: string) => (await t.sql('authors').first('data').where('document_id', id)).data.bio;
    const [bioA, bioB] = [await bio(a), await bio(b)];
    expect([['first by 0', 'second by 0'], ['second by 1', 'first by 1']]).toContainEqual([bioA, bioB]);
  });

  it('are answered 409 ConflictError after a bounded number of attempts', async () => {
    const a = (await t.request('POST', '/api/authors', { data: { name: 'Contended' } })).body.data.documentId;
    let attempts = 0;
    const failing = t.app.documents.transaction(async (documents, trx) => {
      attempts++;
      // a snapshot taken before another transaction changes the row: updating it must fail
      await trx.raw('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await trx('authors').count();
      await t.sql('authors').where('document_id', a).update({ updated_at: t.sql.fn.now() });
      await documents(AUTHOR).update({ documentId: a, data: { bio: 'never' } });
    });
    const err = await failing.then(() => null, (e: unknown) => e);
    expect(isAppError(err) && err.toJSON()).toMatchObject({ status: 409, name: 'ConflictError' });
    expect(attempts).toBe(4); // the first try and three retries
    expect((await t.sql('authors').first('data').where('document_id', a)).data.bio).toBeUndefined();
  });

  it('answer 503 ServiceUnavailableError when a lock is not available in time', async () => {
    const a = (await t.request('POST', '/api/authors', { data: { name: 'Held' } })).body.data.documentId;
    const held = signal();
    const release = signal();
    const holder = t.sql.transaction(async (trx) => {
      await trx('authors').where('document_id', a).forUpdate();
      held.done();
      await release.reached;
    });
    await held.reached;
    let attempts = 0;
    const err = await t.app.documents.transaction(async (documents, trx) => {
      attempts++;
      await trx.raw(`SET LOCAL lock_timeout = '50ms'`);
      await documents(AUTHOR).delete({ documentId: a });
    }).then(() => null, (e: unknown) => e);
    release.done();
    await holder;
    expect(isAppError(err) && err.toJSON()).toMatchObject({ status: 503, name: 'ServiceUnavailableError' });
    expect(attempts).toBe(1);
    expect(await t.sql('authors').first('id').where('document_id', a)).toBeDefined();
  });
});
