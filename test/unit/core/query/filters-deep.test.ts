import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knex from 'knex';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { errorOf } from '../../../helpers/errors.ts';
import { applyFilters, compileFilters, resolveFilters } from '../../../../core/query/filters.ts';
import type { Scope } from '../../../../core/query/scope-sql.ts';
import { linksTable } from '../../../../core/query/links-sql.ts';
import type { FieldRef, FilterNode } from '../../../../core/query/types.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';
import { checkQueryLimits } from '../../../../core/query/bounds.ts';
import { assertQueryAccess } from '../../../../core/auth/query-access.ts';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
let registry: Registry;
const db = knex({ client: 'pg' });
beforeAll(async () => {
  registry = await blogRegistry();
});
afterAll(async () => {
  await db.destroy();
});

const resolve = (raw: unknown, uid = ARTICLE): FilterNode | undefined => resolveFilters(registry, uid, raw);
const attr = (name: string, type: string): FieldRef => ({ kind: 'attribute', name, type }) as FieldRef;
const ID: FieldRef = { kind: 'system', name: 'id' };
const PUBLISHED_EN: Scope = { status: 'published', locale: 'en' };

/** The WHERE clause `filters` on `uid` compiles to, on its unaliased table. */
function where(filters: unknown, uid = ARTICLE, scope: Scope = PUBLISHED_EN): { sql: string; bindings: unknown[] } {
  const node = resolve(filters, uid);
  if (!node) throw new Error('no filter');
  const table = registry.contentType(uid).collectionName;
  const { sql, bindings } = applyFilters(db(table).select('id'), registry, uid, node, undefined, scope)
    .toSQL()
    .toNative();
  return { sql: sql.replace(/^select "id" from "\w+" where /, ''), bindings: [...bindings] };
}

describe('resolveFilters: deep nodes', () => {
  it('a relation node per side and kind, its filter resolved against the target', () => {
    const name = { type: 'condition', field: attr('name', 'string'), operator: '$eq', value: 'Ann' };
    expect(resolve({ author: { name: 'Ann' } })).toEqual({
      type: 'relation',
      attribute: 'author',
      target: AUTHOR,
      link: { kind: 'owning', toMany: false },
      node: name,
    });
    expect(resolve({ tags: { name: 'Ann' } })).toMatchObject({ target: TAG, link: { kind: 'owning', toMany: true } });
    expect(resolve({ articles: { title: 'x' } }, AUTHOR)).toMatchObject({
      link: { kind: 'inverse', owner: 'author', ownerToMany: false, toMany: true },
    });
    expect(resolve({ articles: { title: 'x' } }, TAG)).toMatchObject({
      link: { kind: 'inverse', owner: 'tags', ownerToMany: true, toMany: true },
    });
    expect(resolve({ cover: { name: 'a.png' } })).toMatchObject({
      target: 'plugin::upload.file',
      link: { kind: 'media', toMany: false },
    });
    expect(resolve({ gallery: { $null: 'true' } })).toMatchObject({
      link: { kind: 'media', toMany: true },
      node: { field: ID, operator: '$null', value: true },
    });
  });

  it('operators, bare values and arrays on a relation test the related id; groups nest inside it', () => {
    expect(resolve({ author: '3' })).toMatchObject({
      node: { type: 'condition', field: ID, operator: '$eq', value: '3' },
    });
    expect(resolve({ author: ['3', '4'] })).toMatchObject({ node: { field: ID, operator: '$in', value: ['3', '4'] } });
    expect(resolve({ author: { $notNull: true } })).toMatchObject({
      node: { field: ID, operator: '$notNull', value: true },
    });
    expect(resolve({ author: { $or: [{ name: 'a' }, { $null: true }] } })).toMatchObject({
      node: { type: 'or', nodes: [{ field: attr('name', 'string') }, { field: ID, operator: '$null' }] },
    });
    expect(resolve({ author: { articles: { author: { documentId: 'x' } } } })).toMatchObject({
      node: {
        type: 'relation',
        link: { kind: 'inverse' },
        node: { type: 'relation', node: { field: { kind: 'system', name: 'documentId' } } },
      },
    });
  });

  it('component nodes, with the instance id', () => {
    expect(resolve({ seo: { keywords: { value: 'pg' } } })).toEqual({
      type: 'component',
      attribute: 'seo',
      component: 'shared.seo',
      repeatable: false,
      node: {
        type: 'component',
        attribute: 'keywords',
        component: 'shared.keyword',
        repeatable: true,
        node: { type: 'condition', field: attr('value', 'string'), operator: '$eq', value: 'pg' },
      },
    });
    expect(resolve({ seo: { id: '7' } })).toMatchObject({ node: { field: ID, operator: '$eq', value: '7' } });
  });

  it('dynamic zones: a branch per component with one of the names, `absent` for the names it lacks', () => {
    expect(resolve({ blocks: { title: 'Q' } })).toEqual({
      type: 'dynamiczone',
      attribute: 'blocks',
      branches: [
        {
          component: 'shared.quote',
          node: { type: 'condition', field: attr('title', 'string'), operator: '$eq', value: 'Q' },
        },
      ],
    });
    const either = resolve({ blocks: { $or: [{ title: 'Q' }, { body: 'b' }] } });
    expect(either).toMatchObject({
      branches: [
        {
          component: 'shared.rich-text',
          node: { type: 'or', nodes: [{ type: 'absent', attribute: 'title' }, { field: attr('body', 'richtext') }] },
        },
        {
          component: 'shared.quote',
          node: { type: 'or', nodes: [{ field: attr('title', 'string') }, { field: attr('body', 'text') }] },
        },
      ],
    });
    expect(resolve({ blocks: { id: '1' } })).toMatchObject({ branches: [{}, {}, {}, {}] });
    for (const empty of [{ blocks: {} }, { blocks: { title: {} } }, { seo: {} }, { author: {} }])
      expect(resolve(empty)).toBeUndefined();
  });

  it('refuses what cannot be read, with the path Strapi 5.54 reports', () => {
    expect(errorOf(() => resolve({ author: { password: 'x' } })).details).toMatchObject({
      key: 'password',
      path: 'author',
    });
    expect(errorOf(() => resolve({ cover: { folderPath: 'x' } })).message).toBe(
      'Invalid key folderPath at cover.folderPath',
    );
    expect(errorOf(() => resolve({ seo: 'x' })).message).toBe('Invalid key seo');
    expect(errorOf(() => resolve({ seo: { keywords: ['a'] } })).message).toBe('Invalid key keywords at seo.keywords');
    expect(errorOf(() => resolve({ blocks: { $not: { nope: 1 } } })).details).toMatchObject({
      key: 'nope',
      path: 'blocks',
    });
    expect(errorOf(() => resolve({ seo: { keywords: { $eq: 'x' } } })).message).toBe('Invalid key $eq at seo.keywords');
    expect(errorOf(() => resolve({ author: { id: { $eq: 'abc' } } })).details).toMatchObject({
      key: 'id',
      path: 'author.id.$eq',
    });
  });
});

describe('compileFilters: deep SQL', () => {
  it("owning to-one: contains any matching target's document_id (uncorrelated, GIN-served), in read's scope", () => {
    expect(where({ author: { name: 'Ann' } })).toEqual({
      sql:
        '("articles"."data" @> ANY (ARRAY(SELECT jsonb_build_object($1::text, "_vf1"."document_id") FROM ' +
        '"authors" AS "_vf1" WHERE "_vf1"."published_at" IS NOT NULL AND ("_vf1"."data" @> $2::jsonb))))',
      bindings: ['author', '{"name":"Ann"}'],
    });
  });

  it('owning to-many, inverse sides by containment; a localized, draft & publish target gets status and locale', () => {
    expect(where({ tags: { name: 'js' } }).sql).toBe(
      '("articles"."data" @> ANY (ARRAY(SELECT jsonb_build_object($1::text, ' +
        'jsonb_build_array("_vf1"."document_id")) FROM "tags" AS "_vf1" WHERE "_vf1"."published_at" IS NOT ' +
        'NULL AND ("_vf1"."data" @> $2::jsonb))))',
    );
    // the inverse side: the ids the matching owners hold, as one uncorrelated set
    expect(where({ articles: { views: { $gt: 1 } } }, TAG, { status: 'draft', locale: 'fr' })).toEqual({
      sql:
        '("tags"."document_id" IN (SELECT "_vf1_o".v FROM "articles" AS "_vf1", ' +
        'jsonb_array_elements_text(CASE WHEN jsonb_typeof("_vf1"."data"->$1) = \'array\' THEN ' +
        '"_vf1"."data"->$2 END) AS "_vf1_o"(v) WHERE "_vf1"."published_at" IS NULL AND "_vf1"."locale" = ' +
        `$3 AND ("_vf1"."v$views" > $4::numeric)))`,
      bindings: ['tags', 'tags', 'fr', '1'],
    });
    expect(where({ articles: { title: 'x' } }, AUTHOR).sql).toContain(
      '("authors"."document_id" IN (SELECT "_vf1"."data"->>$1 FROM "articles" AS "_vf1" WHERE',
    );
  });

  it('media: the file id, one or an array', () => {
    expect(where({ cover: { name: 'a' } }).sql).toMatch(
      /^\(\("articles"\."data"->>\$1\) IN \(SELECT "_vf1"\."id"::text FROM "files" AS "_vf1" WHERE/,
    );
    expect(where({ gallery: { name: 'a' } }).sql).toMatch(
      new RegExp(
        '^EXISTS \\(SELECT 1 FROM jsonb_array_elements_text\\(.*"articles"\\."data"->\\$2 END\\) AS "_vf1_h"\\(v\\) ' +
          'WHERE "_vf1_h"\\.v IN \\(SELECT "_vf1"\\."id"::text FROM "files"',
      ),
    );
  });

  it('id presence is (NOT) EXISTS; a condition true on nulls also matches rows with nothing related', () => {
    const any =
      'SELECT 1 FROM "authors" AS "_vf1" WHERE "_vf1"."document_id" = "articles"."data"->>$1 AND ' +
      '"_vf1"."published_at" IS NOT NULL';
    expect(where({ author: { $null: true } }).sql).toBe(`(NOT EXISTS (${any}))`);
    expect(where({ author: { id: { $notNull: 'false' } } }).sql).toBe(`(NOT EXISTS (${any}))`);
    expect(where({ author: { $notNull: true } }).sql).toBe(`(EXISTS (${any}))`);
    expect(where({ author: { name: { $null: true } } }).sql).toBe(
      `(NOT EXISTS (${any}) OR ("articles"."data" @> ANY (ARRAY(SELECT jsonb_build_object($2::text, ` +
        `"_vf1"."document_id") FROM "authors" AS "_vf1" WHERE "_vf1"."published_at" IS NOT NULL AND ` +
        `("_vf1"."data"->>'name' IS NULL)))))`,
    );
    // unknown on nulls (NOT (name = x)): rows with no author stay out
    expect(where({ author: { $not: { name: 'x' } } }).sql).toMatch(/^\("articles"\."data" @> ANY \(ARRAY\(SELECT/);
  });

  it("with links, an owning relation is the row's id among the matching targets' link rows", () => {
    const links = (filters: unknown, uid = ARTICLE) =>
      compileFilters(resolve(filters, uid)!, {
        registry,
        uid,
        source: { table: registry.contentType(uid).collectionName },
        scope: PUBLISHED_EN,
        links: true,
      });
    expect(links({ tags: { name: 'js' } })).toEqual({
      sql:
        `("articles"."id" IN (SELECT "_vf1_l"."row_id" FROM "tags" AS "_vf1", "${linksTable('articles')}" AS ` +
        '"_vf1_l" WHERE "_vf1"."published_at" IS NOT NULL AND "_vf1_l"."attribute" = ? AND "_vf1_l"."target" = ' +
        '"_vf1"."document_id" AND ("_vf1"."data" @> ?::jsonb)))',
      bindings: ['tags', '{"name":"js"}'],
    });
    // a to-one relation alike; nested under an inverse one, the link table of the nested row's type
    expect(links({ author: { name: 'Ann' } }).sql).toContain(`"${linksTable('articles')}" AS "_vf1_l"`);
    expect(links({ articles: { author: { name: 'Bob' } } }, TAG).sql).toMatch(
      new RegExp(
        `\\("_vf1"\\."id" IN \\(SELECT "_vf2_l"\\."row_id" FROM "authors" AS "_vf2", "${linksTable('articles')}"`,
      ),
    );
  });

  it('nested levels get their own aliases; the outer row is always qualified', () => {
    const { sql } = where({ articles: { author: { name: 'Bob' } } }, TAG);
    expect(sql).toMatch(
      new RegExp(
        '\\("_vf1"\\."data" @> ANY \\(ARRAY\\(SELECT jsonb_build_object\\(\\$\\d+::text, "_vf2"\\."document_id"\\) ' +
          'FROM "authors" AS "_vf2" WHERE',
      ),
    );
    const aliased = compileFilters(resolve({ author: { name: 'x' } })!, {
      registry,
      uid: ARTICLE,
      source: { alias: 'r' },
    });
    expect(aliased.sql).toMatch(/^\("r"\."data" @> ANY/);
    const nulls = compileFilters(resolve({ author: { name: { $null: true } } })!, {
      registry,
      uid: ARTICLE,
      source: { alias: 'r' },
    });
    expect(nulls.sql).toContain('= "r"."data"->>?');
    // without a scope: published rows, any locale
    const unscoped = compileFilters(resolve({ articles: { title: 'x' } }, TAG)!, {
      registry,
      uid: TAG,
      source: { alias: 'r' },
    }).sql;
    expect(unscoped).toContain('"_vf1"."published_at" IS NOT NULL AND (');
    expect(unscoped).not.toContain('locale');
  });

  it('components: a single one in place, repeatable items and dynamic zone items through jsonb_array_elements', () => {
    expect(where({ seo: { metaTitle: 'x' } })).toEqual({
      sql: '(("articles"."data"->$1) @> $2::jsonb)',
      bindings: ['seo', '{"metaTitle":"x"}'],
    });
    expect(where({ seo: { id: 3 } }).sql).toBe('((("articles"."data"->$1)->>\'id\')::bigint = $2::bigint)');
    expect(where({ seo: { keywords: { value: { $contains: 'p' } } } })).toEqual({
      sql:
        `(EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("articles"."data"->$1)->$2) ` +
        `= 'array' THEN ("articles"."data"->$3)->$4 END) AS "_vf1"(v) WHERE ("_vf1".v->>'value' LIKE $5::text)))`,
      bindings: ['seo', 'keywords', 'seo', 'keywords', '%p%'],
    });
    expect(where({ blocks: { $or: [{ title: 'Q' }, { body: 'b' }] } }).sql).toBe(
      `(EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof("articles"."data"->$1) = 'array' ` +
        `THEN "articles"."data"->$2 END) AS "_vf1"(v) WHERE (("_vf1".v->>'__component' = $3 AND ` +
        `((NULL::boolean) OR ("_vf1".v @> $4::jsonb))) OR ("_vf1".v->>'__component' = $5 AND (("_vf1".v @> ` +
        `$6::jsonb) OR ("_vf1".v @> $7::jsonb))))))`,
    );
  });

  it('a relation inside a dynamic zone item links from the item', () => {
    const { sql, bindings } = where({ blocks: { person: { name: 'Bob' } } });
    expect(sql).toContain(
      '"_vf1".v->>\'__component\' = $3 AND (("_vf1".v->>$4) IN (SELECT "_vf2"."document_id" FROM "authors" ' +
        'AS "_vf2" WHERE',
    );
    expect(bindings).toEqual(['blocks', 'blocks', 'shared.quote', 'person', '{"name":"Bob"}']);
  });

  it('never splices a value into the SQL, however deep', () => {
    const hostile = "x'); DROP TABLE authors; --";
    const { sql, bindings } = where({
      tags: { articles: { author: { name: { $contains: hostile } } } },
      blocks: { title: hostile },
    });
    expect(sql).not.toContain('DROP');
    expect(bindings).toContain(`%${hostile}%`);
  });
});

describe('localizations', () => {
  it('resolves as a relation to the same type on localized types only, and compiles to a correlated EXISTS', () => {
    expect(resolve({ localizations: { title: 'B' } })).toEqual({
      type: 'relation',
      attribute: 'localizations',
      target: ARTICLE,
      link: { kind: 'localizations', toMany: true },
      node: {
        type: 'condition',
        field: { ...attr('title', 'string'), column: 'v$title' },
        operator: '$eq',
        value: 'B',
      },
    });
    expect(errorOf(() => resolve({ localizations: { name: 'x' } }, TAG)).message).toBe('Invalid key localizations');
    const { sql, bindings } = where({ localizations: { title: 'B' } });
    expect(sql).toBe(
      '(EXISTS (SELECT 1 FROM "articles" AS "_vf1" WHERE "_vf1"."document_id" = "articles"."document_id" AND ' +
        '"_vf1"."locale" IS DISTINCT FROM "articles"."locale" AND "_vf1"."published_at" IS NOT NULL AND ' +
        `("_vf1"."v$title" = $1::text)))`,
    );
    expect(bindings).toEqual(['B']);
    // drafts: the read's status, any locale
    expect(where({ localizations: { $null: true } }, ARTICLE, { status: 'draft', locale: 'en' }).sql).toBe(
      '(NOT EXISTS (SELECT 1 FROM "articles" AS "_vf1" WHERE "_vf1"."document_id" = "articles"."document_id" AND ' +
        '"_vf1"."locale" IS DISTINCT FROM "articles"."locale" AND "_vf1"."published_at" IS NULL))',
    );
  });

  it('counts as a relation hop for maxQueryDepth and needs find on the type', () => {
    const node = resolve({ localizations: { localizations: { title: 'x' } } });
    expect(() => checkQueryLimits({ filters: node }, { maxDepth: 1, maxConditions: 10 })).toThrow(/maxQueryDepth/);
    expect(() => checkQueryLimits({ filters: node }, { maxDepth: 2, maxConditions: 10 })).not.toThrow();
    expect(() => assertQueryAccess({ filters: node }, () => false)).toThrow(/Invalid key localizations/);
    expect(() => assertQueryAccess({ filters: node }, () => true)).not.toThrow();
  });
});
