/**
 * Each document row keeps its own fields' JSON text (core/query/render-sql.ts), written by a
 * trigger with the row; a list answer joins these texts. These tests hold the kept render to
 * what a read builds from the row: a list answer (kept renders) must equal each document's
 * findOne answer (built), for every scalar type, through every kind of write, after a schema
 * change, and for a row that has lost its render.
 */
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType } from '../../core/content-types/types.ts';
import { partsExpression, renderExpression, renderVersion } from '../../core/query/render-sql.ts';
import { rerenderInBackground } from '../../database/rerender.ts';
import { syncTables } from '../../database/sync.ts';
import { createVellumApp } from '../../index.ts';
import { copyApp } from '../../testing.ts';
import { ROOT, startApp, type TestApp } from '../helpers/app.ts';

const THING = 'api::thing.thing';
let t: TestApp;
let appDir: string;
let other: string;

const thingData = (n: number) => ({
  str: `S${n}`,
  txt: 'T',
  rich: '# R "quoted" \\ and\nnewline',
  blk: [{ type: 'paragraph', children: [{ type: 'text', text: 'b' }] }],
  enm: 'b',
  named: 'y',
  mail: 'a@b.io',
  pass: 'secret12',
  slug: `s-${n}`,
  day: '2024-05-01',
  clock: '10:20:30',
  when: '2024-05-01T10:00:00.000Z',
  stamp: '2024-05-01T10:00:00.000Z',
  int: 42 + n,
  big: '9007199254740993',
  flt: 1.5,
  dec: 2.25,
  flag: n % 2 === 0,
  js: { a: [1, 2], s: 'é ✓' },
  secret: 'hidden-value',
  one: other,
  many: [other],
  piece: { label: 'p', size: '1', kind: 'large' },
  zone: [{ __component: 'parts.piece', label: 'z' }],
});

/** Rows of `ct`'s table whose kept render, or kept parts, are not what the row renders to now. */
async function stale(ct: ContentType = t.app.registry.contentType(THING)): Promise<number> {
  const rendered = renderExpression(ct, 'a');
  const parts = partsExpression(t.app.registry, ct, 'a') ?? 'NULL::text[]';
  const { rows } = await t.sql.raw(
    `SELECT count(*)::int AS n FROM ${ct.collectionName} a
     WHERE a."v:doc" IS DISTINCT FROM ${rendered} OR a."v:parts" IS DISTINCT FROM ${parts}`,
  );
  return rows[0].n;
}

/** Every document of a list answer (kept renders) next to its findOne answer (built), in the same status and locale. */
async function expectListEqualsFindOne(query = ''): Promise<number> {
  const list = await t.request('GET', `/api/things?pagination[pageSize]=100&${query}`);
  expect(list.status, list.text).toBe(200);
  for (const doc of list.body.data) {
    const one = await t.request('GET', `/api/things/${doc.documentId}?${query}`);
    expect(one.status, one.text).toBe(200);
    expect(doc).toEqual(one.body.data);
  }
  return list.body.data.length;
}

beforeAll(async () => {
  appDir = await copyApp(path.join(ROOT, 'test/fixtures/graphql/every-type'));
  t = await startApp({
    appDir,
    config: { plugins: { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } } } },
    // answers read from the database every time: a raw SQL write (one of the steps) bumps no
    // response-cache generation, and the reads here are what is being checked
    env: { RESPONSE_CACHE: 'false' },
  });
  other = String((await t.app.documents('api::other.other').create({ data: { label: 'o' } })).documentId);
  for (let n = 1; n <= 3; n++) {
    const res = await t.request('POST', '/api/things', { data: thingData(n) });
    expect(res.status, res.text).toBe(201);
  }
  // one of them back to a draft only
  const last = (await t.request('GET', '/api/things?sort=str:desc')).body.data[0];
  expect((await t.request('POST', `/api/things/${last.documentId}/actions/unpublish`)).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the kept render of each row', () => {
  it('is what a read builds, for every scalar type, without private or password fields', async () => {
    expect(await stale()).toBe(0);
    expect(await expectListEqualsFindOne()).toBe(2);
    expect(await expectListEqualsFindOne('status=draft')).toBe(3);
    const list = await t.request('GET', '/api/things?status=draft&sort=str:asc');
    const [doc] = list.body.data;
    expect(doc).toMatchObject({ str: 'S1', big: '9007199254740993', stamp: '1714557600000', js: { s: 'é ✓' } });
    expect(doc).not.toHaveProperty('secret');
    expect(doc).not.toHaveProperty('pass');
    const { rows } = await t.sql.raw(`SELECT count(*)::int AS n FROM things WHERE "v:doc" LIKE '%hidden-value%'`);
    expect(rows[0].n).toBe(0);
  });

  it('is what the list read answers from, and a read with `fields` builds its own', async () => {
    t.queries.length = 0;
    await t.request('GET', '/api/things?status=draft');
    expect(t.queries.filter((q) => q.includes('"v:doc"'))).toHaveLength(1);
    t.queries.length = 0;
    const some = await t.request('GET', '/api/things?status=draft&fields[0]=str&fields[1]=int&sort=str:asc');
    expect(some.body.data[0]).toEqual({ id: expect.any(Number), documentId: expect.any(String), str: 'S1', int: 43 });
    expect(t.queries.filter((q) => q.includes('"v:doc"'))).toEqual([]);
  });

  it('keeps its components and zones rendered too, as a built read shows them', async () => {
    t.queries.length = 0;
    const kept = await t.request('GET', '/api/things?status=draft&populate=*&sort=str:asc');
    expect(kept.status, kept.text).toBe(200);
    expect(t.queries.filter((q) => q.includes('"v:parts"'))).toHaveLength(1);
    expect(kept.body.data[0].piece).toMatchObject({ label: 'p', size: '1', kind: 'large' });
    expect(kept.body.data[0].zone).toEqual([expect.objectContaining({ __component: 'parts.piece', label: 'z' })]);
    // a zone asked for with `on` is built: the same items
    const built = await t.request('GET', '/api/things?status=draft&populate[zone][on][parts.piece]=true&sort=str:asc');
    expect(built.body.data.map((d: { zone: unknown }) => d.zone)).toEqual(
      kept.body.data.map((d: { zone: unknown }) => d.zone),
    );
    // rows without kept parts (the trigger off) are built, and answer the same
    await t.sql.raw('ALTER TABLE things DISABLE TRIGGER vellum_render');
    await t.sql.raw(`UPDATE things SET "v:parts" = NULL`);
    await t.sql.raw('ALTER TABLE things ENABLE TRIGGER vellum_render');
    const rebuilt = await t.request('GET', '/api/things?status=draft&populate=*&sort=str:asc');
    expect(rebuilt.body).toEqual(kept.body);
    await t.sql.raw(`UPDATE things SET "v:parts" = NULL`);
    expect(await stale()).toBe(0);
  });

  it('populated keys follow the row’s own, as a built answer has them', async () => {
    expect(await expectListEqualsFindOne('populate=*&status=draft')).toBe(3);
    const list = await t.request('GET', '/api/things?populate[one]=true&populate[zone]=true&sort=str:asc');
    expect(Object.keys(list.body.data[0]).slice(-3)).toEqual(['locale', 'one', 'zone']);
    expect(list.body.data[0].one).toMatchObject({ documentId: other, label: 'o' });
  });

  it('follows every write: update, publish, unpublish, discard, localization, relation, raw SQL', async () => {
    const { documentId } = (await t.request('GET', '/api/things?status=draft&sort=str:asc')).body.data[1];
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['update', () => t.request('PUT', `/api/things/${documentId}`, { data: { str: 'S2b', int: -1, js: null } })],
      ['publish', () => t.request('POST', `/api/things/${documentId}/actions/publish`)],
      ['update draft', () => t.request('PUT', `/api/things/${documentId}`, { data: { txt: 'changed' } })],
      ['discard', () => t.app.documents(THING).discardDraft({ documentId })],
      [
        'localize',
        () => t.request('PUT', `/api/things/${documentId}?locale=fr`, { data: { str: 'Fr', slug: 'fr-1' } }),
      ],
      ['unpublish', () => t.request('POST', `/api/things/${documentId}/actions/unpublish`)],
      ['delete relation target', () => t.app.documents('api::other.other').delete({ documentId: other })],
      [
        'raw SQL',
        () => t.sql.raw(`UPDATE things SET data = data || '{"txt": "raw"}' WHERE document_id = ?`, [documentId]),
      ],
    ];
    for (const [name, write] of steps) {
      const res = (await write()) as { status?: number; text?: string };
      if (res?.status !== undefined) expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
      expect(await stale(), name).toBe(0);
      await expectListEqualsFindOne('status=draft');
      await expectListEqualsFindOne('status=draft&locale=fr');
      await expectListEqualsFindOne();
    }
    const fr = await t.request('GET', `/api/things/${documentId}?status=draft&locale=fr`);
    expect(fr.body.data).toMatchObject({ str: 'Fr', txt: 'raw', locale: 'fr' });
  });

  it('is rendered again when the schema changes it, and built for a row that has lost it', async () => {
    const thing = t.app.registry.contentType(THING);
    const { txt: _, ...rest } = thing.attributes;
    const changed: ContentType = { ...thing, attributes: { ...rest, int: { type: 'integer', private: true } } };
    await t.sql.transaction((trx) => syncTables(trx, [changed], t.app.registry));
    expect(await stale(changed)).toBe(0);
    const { rows } = await t.sql.raw(`SELECT "v:doc" AS doc FROM things LIMIT 1`);
    expect(Object.keys(JSON.parse(rows[0].doc))).not.toContain('int');
    expect(Object.keys(JSON.parse(rows[0].doc))).not.toContain('txt');
    await t.sql.transaction((trx) => syncTables(trx, [thing], t.app.registry));
    expect(await stale()).toBe(0);
    expect(await expectListEqualsFindOne('status=draft')).toBe(3);
    // without its component and zone, a type keeps no parts; with them back, every row has its parts again
    const { piece: _p, pieces: _ps, zone: _z, ...scalars } = thing.attributes;
    await t.sql.transaction((trx) => syncTables(trx, [{ ...thing, attributes: scalars }], t.app.registry));
    const columns = async () =>
      (
        await t.sql.raw(`SELECT attname FROM pg_attribute WHERE attrelid = 'things'::regclass AND NOT attisdropped`)
      ).rows.map((r: { attname: string }) => r.attname);
    expect(await columns()).not.toContain('v:parts');
    await t.sql.transaction((trx) => syncTables(trx, [thing], t.app.registry));
    expect(await columns()).toContain('v:parts');
    expect(await stale()).toBe(0);
    expect(await expectListEqualsFindOne('status=draft&populate=*')).toBe(3);

    // rows written while the trigger is off (a replica's session) may have none: they are read built
    await t.sql.raw('ALTER TABLE things DISABLE TRIGGER vellum_render');
    await t.sql.raw(`UPDATE things SET "v:doc" = NULL, data = data || '{"txt": "restored"}'`);
    await t.sql.raw('ALTER TABLE things ENABLE TRIGGER vellum_render');
    expect(await expectListEqualsFindOne('status=draft')).toBe(3);
    const list = await t.request('GET', '/api/things?status=draft');
    expect(list.body.data.map((d: { txt: string }) => d.txt)).toEqual(['restored', 'restored', 'restored']);
  });

  it('of an older render is not read: the row is read built, and rendered again in the background', async () => {
    const thing = t.app.registry.contentType(THING);
    const version = renderVersion(t.app.registry, thing);
    expect((await t.sql.raw(`SELECT DISTINCT "v:rv" AS v FROM things`)).rows).toEqual([{ v: version }]);
    // what an older render left: texts a read must not show, marked with another version (the trigger off, as
    // no write of ours would leave them)
    const older = async () => {
      await t.sql.raw('ALTER TABLE things DISABLE TRIGGER vellum_render');
      await t.sql.raw(
        `UPDATE things SET "v:doc" = '{"older": true}', "v:parts" = ARRAY['"older"', '"older"', '"older"'], "v:rv" = 7`,
      );
      await t.sql.raw('ALTER TABLE things ENABLE TRIGGER vellum_render');
    };
    const before = await t.request('GET', '/api/things?status=draft&populate=*');
    await older();
    expect(await expectListEqualsFindOne('status=draft')).toBe(3);
    expect(await expectListEqualsFindOne('status=draft&populate=*')).toBe(3);
    const list = await t.request('GET', '/api/things?status=draft&populate=*');
    expect(list.text).not.toContain('older');
    expect(list.body).toEqual(before.body);

    // a row a request holds is skipped, not waited for; the next run takes it
    const log = pino({ level: 'silent' });
    const held = await t.sql.transaction();
    try {
      await held.raw(`SELECT 1 FROM things WHERE id = (SELECT min(id) FROM things) FOR UPDATE`);
      const first = rerenderInBackground(t.sql, [{ table: 'things', version }], log, { pauseMs: 0, passes: 1 });
      await first.done;
      const left = await t.sql.raw(`SELECT count(*)::int AS n FROM things WHERE "v:rv" IS DISTINCT FROM ?`, [version]);
      expect(left.rows[0].n).toBe(1);
    } finally {
      await held.rollback();
    }
    await rerenderInBackground(t.sql, [{ table: 'things', version }], log, { batch: 2, pauseMs: 0 }).done;
    expect(await stale()).toBe(0);
    expect((await t.sql.raw(`SELECT DISTINCT "v:rv" AS v FROM things`)).rows).toEqual([{ v: version }]);

    // a render the table's trigger no longer computes (another instance's schema) is not pursued
    await older();
    await rerenderInBackground(t.sql, [{ table: 'things', version: version + 1 }], log, { pauseMs: 0 }).done;
    expect((await t.sql.raw(`SELECT DISTINCT "v:rv" AS v FROM things`)).rows).toEqual([{ v: 7 }]);
    await t.sql.raw(`UPDATE things SET "v:doc" = NULL`);
    expect(await stale()).toBe(0);
  });

  it('left by a schema change on a large table is rendered in the background, served right meanwhile', async () => {
    const thing = t.app.registry.contentType(THING);
    const version = renderVersion(t.app.registry, thing);
    // the table as an older schema left it: its trigger's version, and rows of that render
    await t.sql.raw('ALTER TABLE things DISABLE TRIGGER vellum_render');
    await t.sql.raw(`UPDATE things SET "v:doc" = '{"older": true}', "v:rv" = 7`);
    await t.sql.raw('ALTER TABLE things ENABLE TRIGGER vellum_render');
    await t.sql.raw(`COMMENT ON COLUMN things."v:rv" IS '7'`);
    // the sync renders nothing itself over the budget, and says which tables it left
    const report = await t.sql.transaction((trx) => syncTables(trx, [thing], t.app.registry, { inlineRenderRows: 2 }));
    expect(report.staleRenders).toEqual([{ table: 'things', version }]);
    expect((await t.sql.raw(`SELECT count(*)::int AS n FROM things WHERE "v:rv" = 7`)).rows[0].n).toBe(6);
    await t.sql.raw(`COMMENT ON COLUMN things."v:rv" IS '7'`);

    // an app starting on it serves at once, and renders them in the background
    const second = await createVellumApp({
      appDir,
      databaseUrl: t.database.url,
      env: { ...process.env, VELLUM_DEMO_CONTENT: 'false', RESPONSE_CACHE: 'false' },
      config: {
        database: { inlineRenderRows: 0 },
        plugins: { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } } },
      },
      logger: pino({ level: 'silent' }),
    });
    try {
      await second.start();
      const { url } = await second.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${url}/api/things?status=draft&pagination[pageSize]=100`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(JSON.stringify(body.data)).not.toContain('older');
      expect(body.data).toHaveLength(3);
      const deadline = Date.now() + 20_000;
      let left = -1;
      while (left !== 0 && Date.now() < deadline) {
        left = (await t.sql.raw(`SELECT count(*)::int AS n FROM things WHERE "v:rv" IS DISTINCT FROM ?`, [version]))
          .rows[0].n;
        if (left !== 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(left).toBe(0);
      expect(await stale()).toBe(0);
    } finally {
      await second.destroy();
    }
  });
});
