/**
 * Concurrent writes through the REST API and the document service: writers to one document
 * serialize (no deadlock between locales, one winner for a new localization or a single
 * type's first PUT), a relation target cannot be deleted under a write that points at it, and
 * the deadlocks and serialization failures left are retried, then answered 409, never 500.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyApp } from '../../testing.ts';
import type { TestApp, TestResponse } from '../helpers/app.ts';
import { pino } from 'pino';
import { isAppError } from '../../core/errors.ts';
import { createVellumApp } from '../../index.ts';
import { BLOG, startApp } from '../helpers/app.ts';

let t: TestApp;
let appDir: string;
beforeAll(async () => {
  // the blog (articles localized in en and fr, with draft & publish), copied: uploads write to its folder
  appDir = await copyApp(BLOG);
  t = await startApp({ appDir });
});
afterAll(async () => {
  await t?.close();
  await rm(appDir, { recursive: true, force: true });
});

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';

const statuses = (responses: TestResponse[]): number[] => responses.map((r) => r.status);
/** The bodies of the failed responses, to show with a failed status assertion. */
const bodies = (responses: TestResponse[]): string =>
  JSON.stringify(responses.filter((r) => r.status >= 300).map((r) => r.body));

/** A promise and its resolver: lets two transactions meet at a point. */
function signal(): { reached: Promise<void>; done: () => void } {
  let done!: () => void;
  const reached = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { reached, done };
}

async function article(data: Record<string, unknown>, query = ''): Promise<string> {
  const res = await t.request('POST', `/api/articles${query}`, { data });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.documentId;
}

async function authorNamed(name: string): Promise<string> {
  const res = await t.request('POST', '/api/authors', { data: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.documentId;
}

describe('writers to one document', () => {
  it('serialize across locales: parallel PUTs in en and fr answer 200, shared attributes stay equal', async () => {
    const documentId = await article({ title: 'Race', views: 0 });
    const put = (locale: string, data: Record<string, unknown>) =>
      t.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { data });
    expect((await put('fr', { title: 'Course' })).status).toBe(200);
    for (let round = 1; round <= 10; round++) {
      const responses = await Promise.all([
        put('en', { title: `Race ${round}`, views: round * 2, rating: 1 }),
        put('fr', { title: `Course ${round}`, views: round * 2 + 1, rating: 2 }),
      ]);
      expect(statuses(responses), bodies(responses)).toEqual([200, 200]);
      const rows = await t.sql('articles').select('locale', 'published_at', 'data').where('document_id', documentId);
      expect(rows).toHaveLength(4); // en and fr, each draft and published
      for (const status of ['draft', 'published']) {
        const versions = rows.filter((r) => (r.published_at === null) === (status === 'draft'));
        expect(new Set(versions.map((r) => JSON.stringify([r.data.views, r.data.rating]))).size, status).toBe(1);
      }
    }
  });

  it('create a missing localization once: parallel first PUT ?locale=fr all answer 200, one fr version', async () => {
    for (let round = 0; round < 3; round++) {
      const documentId = await article({ title: `Only English ${round}`, views: 7 });
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          t.request('PUT', `/api/articles/${documentId}?locale=fr`, { data: { title: `Français ${i}` } }),
        ),
      );
      expect(statuses(responses), bodies(responses)).toEqual(Array(10).fill(200));
      for (const res of responses) expect(res.body.data).toMatchObject({ documentId, locale: 'fr', views: 7 });
      const fr = await t.sql('articles').select('id', 'published_at').where({ document_id: documentId, locale: 'fr' });
      expect(fr.map((r) => r.published_at === null).sort()).toEqual([false, true]);
      // one writer created the version, every other one updated it: what is stored is one of theirs
      const read = await t.request('GET', `/api/articles/${documentId}?locale=fr`);
      expect(responses.map((r) => r.body.data.title)).toContain(read.body.data.title);
    }
  });
});

describe('single types', () => {
  it('keep one document: parallel first PUT /api/global all answer 200 and create one document', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.request('PUT', '/api/global', { data: { siteName: `Site ${i}` } })),
    );
    expect(statuses(responses), bodies(responses)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => r.body.data.documentId)).size).toBe(1);
    expect(await t.sql('globals').count({ n: '*' }).first()).toEqual({ n: 1 });
  });

  it('refuse a second document per locale in the database, and in the document service with a 409', async () => {
    const existing = await t.sql('globals').first('document_id', 'locale', 'published_at');
    expect(existing).toBeDefined();
    const twin = { document_id: 'someotherdocumentid00000', locale: existing.locale, published_at: t.sql.fn.now() };
    await expect(t.sql('globals').insert(twin)).rejects.toMatchObject({ code: '23505' });
    const err = await t.app
      .documents('api::global.global')
      .create({ data: { siteName: 'Second' } })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isAppError(err) && err.toJSON()).toMatchObject({ status: 409, name: 'ConflictError' });
  });

  it('get their index on an existing database; one holding two documents stops start-up', async () => {
    const restart = async () => {
      const logger = pino({ level: 'silent' });
      const env = { VELLUM_DEMO_CONTENT: 'false' };
      const app = await createVellumApp({ appDir, logger, env, databaseUrl: t.database.url });
      try {
        await app.start();
      } finally {
        await app.destroy();
      }
    };
    const index = () =>
      t.sql('pg_indexes').first('indexname').where({ tablename: 'globals', indexname: 'globals_single_key' });
    await t.sql.raw('DROP INDEX globals_single_key');
    await restart();
    expect(await index()).toBeDefined();
    await t.sql.raw('DROP INDEX globals_single_key');
    const twin = { document_id: 'someotherdocumentid00000', published_at: t.sql.fn.now(), data: { siteName: 'Twin' } };
    await t.sql('globals').insert(twin);
    try {
      await expect(restart()).rejects.toThrow(/api::global\.global has more than one document in table "globals"/);
      expect(await index()).toBeUndefined();
    } finally {
      await t.sql('globals').where('document_id', 'someotherdocumentid00000').delete();
      await restart();
    }
    expect(await index()).toBeDefined();
  });
});

describe('relations under concurrent writes to their targets', () => {
  it('never leave an article pointing at a deleted author', async () => {
    for (let round = 0; round < 25; round++) {
      const author = await authorNamed(`Doomed ${round}`);
      const [created, deleted] = await Promise.all([
        t.request('POST', '/api/articles', { data: { title: `Orphan ${round}`, author } }),
        t.request('DELETE', `/api/authors/${author}`),
      ]);
      expect(deleted.status).toBe(204);
      // either the article came first (and lost its author with the delete) or the author was already gone
      expect([201, 400], JSON.stringify(created.body)).toContain(created.status);
      if (created.status === 400) {
        expect(created.body.error.message).toBe(`Document with id "${author}", locale "null" not found`);
      }
    }
    const dangling = await t
      .sql('articles as a')
      .select('a.document_id', t.sql.raw(`a.data->>'author' AS author`))
      .whereRaw(`a.data->>'author' IS NOT NULL`)
      .whereNotExists(t.sql('authors as w').select(1).whereRaw(`w.document_id = a.data->>'author'`));
    expect(dangling).toEqual([]);
  });

  it('let an edit of a related document go on while a write pointing at it is open', async () => {
    const author = await authorNamed('Busy');
    const linked = signal();
    const release = signal();
    const linking = t.app.documents.transaction(async (documents) => {
      await documents(ARTICLE).create({ data: { title: 'Linking', author } });
      linked.done();
      await release.reached;
    });
    await linked.reached;
    try {
      const edit = t.request('PUT', `/api/authors/${author}`, { data: { bio: 'edited meanwhile' } });
      const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5000));
      const first = await Promise.race([edit, waiting]);
      expect(first).toMatchObject({ status: 200 });
    } finally {
      release.done();
      await linking;
    }
  });

  it('never leave an article holding a deleted file', async () => {
    for (let round = 0; round < 15; round++) {
      const form = new FormData();
      form.append('files', new Blob([`note ${round}`], { type: 'text/plain' }), `note-${round}.txt`);
      const headers = { authorization: `Bearer ${t.token}` };
      const uploaded = await fetch(`${t.url}/api/upload`, { method: 'POST', body: form, headers });
      expect(uploaded.status).toBe(201);
      const file = (await uploaded.json())[0].id as number;
      const [created, deleted] = await Promise.all([
        t.request('POST', '/api/articles', { data: { title: `Attachment ${round}`, gallery: [file] } }),
        t.request('DELETE', `/api/upload/files/${file}`),
      ]);
      expect(deleted.status).toBe(200);
      expect([201, 400], JSON.stringify(created.body)).toContain(created.status);
    }
    const dangling = await t
      .sql('articles as a')
      .select('a.document_id', t.sql.raw(`a.data->'gallery' AS gallery`))
      .whereRaw(`jsonb_array_length(coalesce(a.data->'gallery', '[]'::jsonb)) > 0`)
      .whereRaw(`EXISTS (SELECT 1 FROM jsonb_array_elements(a.data->'gallery') g(id)
        WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.id = (g.id)::bigint))`);
    expect(dangling).toEqual([]);
  });
});

describe('deadlocks and serialization failures', () => {
  it('are retried: two transactions writing two documents in opposite orders both commit', async () => {
    const a = await authorNamed('Left');
    const b = await authorNamed('Right');
    const first = [signal(), signal()];
    let attempts = 0;
    const crossing = (side: 0 | 1, one: string, other: string) =>
      t.app.documents.transaction(async (documents) => {
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
    // the one that ran again wrote both documents last
    const bio = async (id: string) => (await t.sql('authors').first('data').where('document_id', id)).data.bio;
    const [bioA, bioB] = [await bio(a), await bio(b)];
    expect([
      ['first by 0', 'second by 0'],
      ['second by 1', 'first by 1'],
    ]).toContainEqual([bioA, bioB]);
  });

  it('are answered 409 ConflictError after a bounded number of attempts', async () => {
    const a = await authorNamed('Contended');
    let attempts = 0;
    const failing = t.app.documents.transaction(async (documents, trx) => {
      attempts++;
      // a snapshot taken before another transaction changes the row: updating it must fail
      await trx.raw('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await trx('authors').count();
      await t.sql('authors').where('document_id', a).update({ updated_at: t.sql.fn.now() });
      await documents(AUTHOR).update({ documentId: a, data: { bio: 'never' } });
    });
    const err = await failing.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(err) && err.toJSON()).toMatchObject({ status: 409, name: 'ConflictError' });
    expect(attempts).toBe(4); // the first try and three retries
    expect((await t.sql('authors').first('data').where('document_id', a)).data.bio).toBeUndefined();
  });

  it('answer 503 ServiceUnavailableError when a lock is not available in time', async () => {
    const a = await authorNamed('Held');
    const held = signal();
    const release = signal();
    const holder = t.sql.transaction(async (trx) => {
      await trx('authors').where('document_id', a).forUpdate();
      held.done();
      await release.reached;
    });
    await held.reached;
    let attempts = 0;
    const err = await t.app.documents
      .transaction(async (documents, trx) => {
        attempts++;
        await trx.raw(`SET LOCAL lock_timeout = '50ms'`);
        await documents(AUTHOR).delete({ documentId: a });
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    release.done();
    await holder;
    expect(isAppError(err) && err.toJSON()).toMatchObject({ status: 503, name: 'ServiceUnavailableError' });
    expect(attempts).toBe(1);
    expect(await t.sql('authors').first('id').where('document_id', a)).toBeDefined();
  });
});
