/**
 * The link tables (core/query/links-sql.ts): for every document row, exactly the documentIds it
 * holds in its owning relations, after every kind of write (REST, publish with its new id,
 * unpublish, delete, parallel writers, raw SQL with values of any shape, TRUNCATE) and after the
 * sync changes what is linked; and a filter through a relation answers from them what a
 * containment test on `data` answers (on a large table from the links, page and total apart).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentType } from '../../core/content-types/types.ts';
import { linksTable } from '../../core/query/links-sql.ts';
import { syncTables } from '../../database/sync.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { explain, nodes, readsDocuments, recordStatements, type Statement } from '../helpers/plans.ts';

let t: TestApp;
let seen: Statement[];
const tags: string[] = [];
const authors: string[] = [];
const LINKS = linksTable('articles');

beforeAll(async () => {
  t = await startApp({ env: { RESPONSE_CACHE: 'false' } });
  for (let i = 0; i < 6; i++) {
    const tag = await t.request('POST', '/api/tags', { data: { name: `link-tag-${i}` } });
    expect(tag.status, tag.text).toBe(201);
    tags.push(tag.body.data.documentId);
  }
  for (let i = 0; i < 3; i++) {
    const author = await t.request('POST', '/api/authors', { data: { name: `Link Author ${i}` } });
    expect(author.status, author.text).toBe(201);
    authors.push(author.body.data.documentId);
  }
  for (let i = 0; i < 30; i++) {
    const res = await t.request('POST', `/api/articles${i % 5 === 4 ? '?status=draft' : ''}`, {
      data: {
        title: `Linked ${String(i).padStart(2, '0')}`,
        views: i * 10,
        tags: [tags[i % 6], tags[(i + 1) % 6]],
        ...(i % 4 === 3 ? {} : { author: authors[i % 3] }),
      },
    });
    expect(res.status, res.text).toBe(201);
  }
  seen = recordStatements(t.app.db);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

type Link = [attribute: string, target: string, rowId: number];

/** What each row holds, computed here from `data` as containment reads it. */
async function heldLinks(): Promise<string[]> {
  const { rows } = await t.sql.raw('SELECT id, data FROM articles');
  const out = new Set<string>();
  for (const { id, data } of rows as Array<{ id: string; data: Record<string, unknown> }>) {
    if (typeof data.author === 'string') out.add(JSON.stringify(['author', data.author, Number(id)]));
    if (Array.isArray(data.tags))
      for (const tag of data.tags) if (typeof tag === 'string') out.add(JSON.stringify(['tags', tag, Number(id)]));
  }
  return [...out].sort();
}

async function keptLinks(): Promise<string[]> {
  const { rows } = await t.sql.raw(`SELECT "attribute", "target", "row_id" FROM "${LINKS}"`);
  return (rows as Array<{ attribute: string; target: string; row_id: string }>)
    .map((r) => JSON.stringify([r.attribute, r.target, Number(r.row_id)] satisfies Link))
    .sort();
}

async function expectLinksKept(): Promise<void> {
  const held = await heldLinks();
  expect(held.length).toBeGreaterThan(0);
  expect(await keptLinks()).toEqual(held);
}

describe('the link table of a content type', () => {
  it('holds what each row holds after REST creates', async () => {
    await expectLinksKept();
  });

  it('follows edits, publishes (new ids), unpublishes, deletes and parallel writers on one document', async () => {
    const list = await t.request('GET', '/api/articles?sort=title:asc&pagination[pageSize]=100');
    const ids = (list.body.data as Array<{ documentId: string }>).map((a) => a.documentId);
    const before = await t.sql.raw(`SELECT max(id)::int AS m FROM articles`);
    const results = await Promise.all([
      t.request('PUT', `/api/articles/${ids[0]}`, { data: { tags: { set: [tags[5]] } } }),
      t.request('PUT', `/api/articles/${ids[1]}`, { data: { tags: { disconnect: [tags[1]] }, author: null } }),
      t.request('PUT', `/api/articles/${ids[2]}`, { data: { title: 'Only the title' } }),
      t.request('POST', `/api/articles/${ids[3]}/actions/unpublish`),
      t.request('DELETE', `/api/articles/${ids[4]}`),
      // one document, five writers at once
      ...tags.slice(0, 5).map((tag) => t.request('PUT', `/api/articles/${ids[5]}`, { data: { tags: [tag] } })),
    ]);
    for (const r of results) expect(r.status, r.text).toBeLessThan(300);
    // the publishes gave published rows new ids: their links moved with them
    const after = await t.sql.raw(`SELECT count(*)::int AS n FROM articles WHERE id > ?`, [before.rows[0].m]);
    expect(after.rows[0].n).toBeGreaterThan(0);
    await expectLinksKept();
  });

  it("leaves a row's links untouched by an update that keeps its id and relations", async () => {
    const drafts = await t.request('GET', '/api/articles?status=draft&filters[title][$eq]=Linked 09');
    const id = drafts.body.data[0].documentId as string;
    const rowId = drafts.body.data[0].id as number;
    const versions = async (): Promise<string[]> =>
      (
        await t.sql.raw(`SELECT xmin::text || ctid::text AS v FROM "${LINKS}" WHERE row_id = ? ORDER BY 1`, [rowId])
      ).rows.map((r: { v: string }) => r.v);
    const before = await versions();
    expect(before).toHaveLength(3);
    const edit = await t.request('PUT', `/api/articles/${id}?status=draft`, { data: { title: 'Linked 09 again' } });
    expect(edit.status, edit.text).toBe(200);
    expect(await versions()).toEqual(before);
    const relink = await t.request('PUT', `/api/articles/${id}?status=draft`, { data: { tags: [tags[0]] } });
    expect(relink.status, relink.text).toBe(200);
    expect(await versions()).not.toEqual(before);
    await expectLinksKept();
  });

  it('follows raw SQL writing values of any shape, and TRUNCATE', async () => {
    await t.sql.raw(
      `UPDATE articles SET data = data || CASE id % 5
         WHEN 0 THEN '{"tags": "not-an-array", "author": ["in", "an", "array"]}'::jsonb
         WHEN 1 THEN jsonb_build_object('tags', jsonb_build_array(12, null, ?::text, ?::text, ?::text), 'author', 7)
         WHEN 2 THEN '{"tags": [["nested"]], "author": null}'::jsonb
         WHEN 3 THEN jsonb_build_object('author', ?::text) - 'tags'
         ELSE '{}'::jsonb END`,
      [tags[2], tags[2], tags[3], authors[1]],
    );
    await t.sql.raw(
      `INSERT INTO articles (document_id, locale, published_at, data)
       SELECT substr(md5(g::text || 'links'), 1, 24), 'en', now(), jsonb_build_object('title', 'Raw ' || g,
         'tags', jsonb_build_array(?::text), 'author', ?::text)
       FROM generate_series(1, 20) g`,
      [tags[4], authors[2]],
    );
    await expectLinksKept();
    await t.sql.raw(`DELETE FROM articles WHERE data->>'title' LIKE 'Raw 1%'`);
    await expectLinksKept();
  });

  it('answers a filter through a relation as containment does; on a large table, from the links', async () => {
    const cases = [
      [2, 3],
      [4, 4],
      [0, 5],
    ];
    const check = async (large: boolean) => {
      for (const [i, j] of cases) {
        const names = [`link-tag-${i}`, `link-tag-${j}`];
        const path =
          `/api/articles?filters[tags][name][$in][0]=${names[0]}&filters[tags][name][$in][1]=${names[1]}` +
          '&filters[views][$gte]=0&sort=title:asc&pagination[pageSize]=5&fields[0]=title';
        seen.length = 0;
        const res = await t.request('GET', path);
        expect(res.status, res.text).toBe(200);
        const expected = await t.sql.raw(
          `SELECT document_id FROM articles a WHERE published_at IS NOT NULL AND locale = 'en'
             AND ("v$views" >= 0) AND EXISTS (SELECT 1 FROM tags g WHERE g.published_at IS NOT NULL
               AND g.data->>'name' = ANY (?::text[])
               AND a.data @> jsonb_build_object('tags', jsonb_build_array(g.document_id)))
           ORDER BY "v$title", id`,
          [names],
        );
        const want = (expected.rows as Array<{ document_id: string }>).map((r) => r.document_id);
        expect(want.length).toBeGreaterThan(0);
        expect(res.body.meta.pagination.total).toBe(want.length);
        expect((res.body.data as Array<{ documentId: string }>).map((a) => a.documentId)).toEqual(want.slice(0, 5));
        const read = seen.filter((s) => readsDocuments(s.sql));
        expect(read).toHaveLength(1);
        const plan = await explain(t.sql, read[0]);
        const scanned = nodes(plan).map((n) => `${n['Node Type']} ${n['Relation Name'] ?? n['Index Name'] ?? ''}`);
        // small: one CTE of the matches, by containment in `data`; large: page and total apart, from the links
        expect(read[0].sql.includes('v:match')).toBe(!large);
        expect(scanned.some((s) => s.includes(LINKS))).toBe(large);
        expect(read[0].sql.includes(' @> ANY (ARRAY(')).toBe(!large);
      }
    };
    await check(false);
    // past 5000 rows counted (read-statements.ts `large`): raw rows, each holding two of the tags
    await t.sql.raw(
      `INSERT INTO articles (document_id, locale, published_at, data)
       SELECT substr(md5(g::text || 'many'), 1, 24), 'en', now(), jsonb_build_object('title', 'Many ' || g,
         'views', g, 'tags', jsonb_build_array((?::text[])[g % 6 + 1], (?::text[])[(g + 1) % 6 + 1]))
       FROM generate_series(1, 5200) g`,
      [tags, tags],
    );
    const all = await t.request('GET', '/api/articles?pagination[pageSize]=1');
    expect(all.body.meta.pagination.total).toBeGreaterThan(5000);
    await check(true);
    await expectLinksKept();
  });

  it('follows the schema: a type without owning relations has no link table; with them, it is rebuilt', async () => {
    const article = t.app.registry.contentType('api::article.article');
    const { tags: _tags, author: _author, ...others } = article.attributes;
    const without: ContentType = { ...article, attributes: others };
    await t.sql.transaction((trx) => syncTables(trx, [without], t.app.registry));
    const exists = async (): Promise<boolean> =>
      (await t.sql.raw('SELECT to_regclass(?) IS NOT NULL AS e', [LINKS])).rows[0].e;
    expect(await exists()).toBe(false);
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    expect(await exists()).toBe(true);
    await expectLinksKept();
    // a lost trigger: the next sync links every row again
    await t.sql.raw(`DROP TRIGGER vellum_links_update ON articles`);
    await t.sql.raw(`UPDATE articles SET data = data || jsonb_build_object('tags', jsonb_build_array(?::text))`, [
      tags[0],
    ]);
    expect(await keptLinks()).not.toEqual(await heldLinks());
    await t.sql.transaction((trx) => syncTables(trx, [article], t.app.registry));
    await expectLinksKept();
    await t.sql.raw('TRUNCATE articles');
    expect(await keptLinks()).toEqual([]);
  });
});
