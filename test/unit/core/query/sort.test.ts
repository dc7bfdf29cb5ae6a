import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knex from 'knex';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { errorOf } from '../../../helpers/errors.ts';
import { applySort, MAX_SORT_DEPTH, resolveSort } from '../../../../core/query/sort.ts';
import type { FieldRef, SortSpec } from '../../../../core/query/types.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';

const ARTICLE = 'api::article.article';
let registry: Registry;
let bare: Registry;
const db = knex({ client: 'pg' });
beforeAll(async () => {
  registry = await blogRegistry();
  bare = await blogRegistry({ upload: false });
});
afterAll(async () => {
  await db.destroy();
});

const resolve = (raw: unknown): SortSpec[] => resolveSort(registry, ARTICLE, raw);
const attr = (name: string, type: string): FieldRef => ({ kind: 'attribute', name, type }) as FieldRef;
/** An article attribute with read indexes: read from its generated column. */
const indexed = (name: string, type: string): FieldRef => ({ ...attr(name, type), column: `v$${name}` }) as FieldRef;
const title = indexed('title', 'string');
const views = indexed('views', 'integer');

describe('resolveSort', () => {
  it('nothing to sort by', () => {
    expect(resolve(undefined)).toEqual([]);
    expect(resolve('')).toEqual([]);
    expect(resolve([])).toEqual([]);
  });

  it('a name, with an optional direction in any case', () => {
    expect(resolve('title')).toEqual([{ field: title, order: 'asc' }]);
    expect(resolve('title:desc')).toEqual([{ field: title, order: 'desc' }]);
    expect(resolve('title:DESC')).toEqual([{ field: title, order: 'desc' }]);
    expect(resolve('title:Asc')).toEqual([{ field: title, order: 'asc' }]);
  });

  it('comma lists, arrays, objects, arrays of objects, and index-keyed objects', () => {
    const expected = [
      { field: views, order: 'desc' },
      { field: title, order: 'asc' },
    ];
    expect(resolve('views:desc,title')).toEqual(expected);
    expect(resolve('views:desc, title')).toEqual(expected);
    expect(resolve(['views:desc', 'title:asc'])).toEqual(expected);
    expect(resolve({ views: 'desc', title: 'asc' })).toEqual(expected);
    expect(resolve([{ views: 'desc' }, { title: 'asc' }])).toEqual(expected);
    expect(resolve({ 1: 'title', 0: 'views:desc' })).toEqual(expected);
  });

  it('system fields, locale only on localized types', () => {
    expect(resolve('createdAt:desc')).toEqual([{ field: { kind: 'system', name: 'createdAt' }, order: 'desc' }]);
    expect(resolve('documentId,locale')).toEqual([
      { field: { kind: 'system', name: 'documentId' }, order: 'asc' },
      { field: { kind: 'system', name: 'locale' }, order: 'asc' },
    ]);
    expect(errorOf(() => resolveSort(registry, 'api::tag.tag', 'locale')).message).toBe('Invalid key locale');
  });

  it('unknown, private, json and non-scalar names are invalid keys', () => {
    expect(errorOf(() => resolve('nope'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope',
      details: { key: 'nope', path: null, source: 'query', param: 'sort' },
    });
    for (const name of ['internalNotes', 'meta', 'body', 'author', 'cover', 'seo', 'blocks'])
      expect(errorOf(() => resolve(name)).message).toBe(`Invalid key ${name}`);
    expect(resolveSort(registry, ARTICLE, 'internalNotes', { allowPrivate: true })).toEqual([
      { field: attr('internalNotes', 'string'), order: 'asc' },
    ]);
    expect(errorOf(() => resolve('title.x')).details).toMatchObject({ key: 'x', path: 'title' });
  });

  it('paths through relations and components, dotted, nested, in arrays', () => {
    const author = {
      type: 'relation',
      attribute: 'author',
      target: 'api::author.author',
      link: { kind: 'owning', toMany: false },
    };
    const byAuthor = [{ field: attr('name', 'string'), order: 'desc', path: [author] }];
    expect(resolve('author.name:desc')).toEqual(byAuthor);
    expect(resolve({ author: { name: 'desc' } })).toEqual(byAuthor);
    expect(resolve([{ author: { name: 'DESC' } }])).toEqual(byAuthor);
    expect(resolve({ author: { name: 'asc', email: 'desc' } }).map((s) => [s.field.name, s.order])).toEqual([
      ['name', 'asc'],
      ['email', 'desc'],
    ]);
    expect(resolve('seo.keywords.value')).toEqual([
      {
        field: attr('value', 'string'),
        order: 'asc',
        path: [
          { type: 'component', attribute: 'seo', component: 'shared.seo', repeatable: false },
          { type: 'component', attribute: 'keywords', component: 'shared.keyword', repeatable: true },
        ],
      },
    ]);
    expect(resolveSort(registry, 'api::author.author', 'articles.id:desc')).toEqual([
      {
        field: { kind: 'system', name: 'id' },
        order: 'desc',
        path: [
          {
            type: 'relation',
            attribute: 'articles',
            target: ARTICLE,
            link: { kind: 'inverse', owner: 'author', ownerToMany: false, toMany: true },
          },
        ],
      },
    ]);
    expect(resolve('author.address.id')[0].field).toEqual({ kind: 'system', name: 'id' });
  });

  it('a path must end on a sortable scalar, pass no dynamic zone, and stay short', () => {
    expect(errorOf(() => resolve('author'))).toMatchObject({
      message: 'Invalid key author',
      details: { path: 'author' },
    });
    expect(errorOf(() => resolve('author.articles'))).toMatchObject({
      message: 'Invalid key articles at author.articles',
      details: { path: 'author.articles' },
    });
    expect(errorOf(() => resolve('blocks.title'))).toMatchObject({
      message: 'Invalid key blocks',
      details: { path: 'blocks' },
    });
    expect(errorOf(() => resolve('author.name.x')).details).toMatchObject({ key: 'x', path: 'author.name' });
    expect(errorOf(() => resolve('tags.articles.internalNotes')).details).toMatchObject({
      key: 'internalNotes',
      path: 'tags.articles.internalNotes',
    });
    expect(errorOf(() => resolve('author.articles.meta')).message).toBe('Invalid key meta at author.articles.meta');
    expect(errorOf(() => resolve('author.:desc')).message).toMatch(/empty/);
    expect(errorOf(() => resolve(`${'author.articles.'.repeat(MAX_SORT_DEPTH)}title`)).message).toMatch(/more than/);
    // the blog's schemas alone: no `plugin::upload.file` to sort through
    expect(errorOf(() => resolveSort(bare, ARTICLE, 'cover.name')).message).toBe('Invalid key cover');
  });

  it('directions other than asc/desc, empty names and other shapes are refused', () => {
    for (const bad of ['title:up', 'title:', 'title:asc:desc', { title: 'up' }, { title: '' }]) {
      // Strapi 5.54's words
      expect(errorOf(() => resolve(bad)).message).toBe('Invalid order. order can only be one of asc|desc|ASC|DESC');
    }
    expect(errorOf(() => resolve('title,,views')).message).toMatch(/empty/);
    expect(errorOf(() => resolve(':desc')).message).toMatch(/empty/);
    expect(errorOf(() => resolve(7)).message).toBe('Invalid sort parameter');
  });
});

describe('applySort', () => {
  const orderBy = (specs: SortSpec[], alias?: string): { sql: string; bindings: unknown[] } => {
    const { sql, bindings } = applySort(db('articles').select('id'), registry, ARTICLE, specs, alias)
      .toSQL()
      .toNative();
    return { sql: sql.replace(/^select "id" from "articles" order by /, ''), bindings: [...bindings] };
  };

  it('casts per type, then orders by id', () => {
    expect(orderBy(resolve('views:desc,title,isFeatured,publishDate'))).toEqual({
      sql: `"v$views" desc, "v$title" asc, "v$isFeatured" asc, ` + `"v$publishDate" asc, "id" asc`,
      bindings: [],
    });
    expect(orderBy(resolve('createdAt:desc')).sql).toBe('"created_at" desc, "id" asc');
  });

  it('orders by id alone when nothing is asked, and adds no second id', () => {
    expect(orderBy([]).sql).toBe('"id" asc');
    expect(orderBy(resolve('id:desc')).sql).toBe('"id" desc');
  });

  it('qualifies columns with the alias', () => {
    expect(orderBy(resolve('title'), 'a').sql).toBe(`"a"."v$title" asc, "a"."id" asc`);
  });

  it("a to-one relation is a scalar subquery in the read's scope; the outer row is qualified", () => {
    expect(orderBy(resolve('author.name:desc'))).toEqual({
      sql:
        `(SELECT "_vs1"."data"->>'name' FROM "authors" AS "_vs1" WHERE "_vs1"."document_id" = ` +
        '"articles"."data"->>$1 AND "_vs1"."published_at" IS NOT NULL ORDER BY "_vs1"."id" LIMIT 1) desc, ' +
        '"id" asc',
      bindings: ['author'],
    });
    expect(orderBy(resolve('author.name'), 'r').sql).toContain('= "r"."data"->>$1');
  });

  it('to-many steps take MIN ascending and MAX descending (bool_and/bool_or for booleans), with scope', () => {
    const tagSort = (order: string): string =>
      `(SELECT ${order}("_vs1"."data"->>'name') FROM "tags" AS "_vs1" WHERE "articles"."data"->$1 @> ` +
      `jsonb_build_array("_vs1"."document_id") AND "_vs1"."published_at" IS NOT NULL)`;
    expect(orderBy(resolve('tags.name')).sql).toBe(`${tagSort('MIN')} asc, "id" asc`);
    expect(orderBy(resolve('tags.name:desc')).sql).toBe(`${tagSort('MAX')} desc, "id" asc`);
    const specs = resolveSort(registry, 'api::author.author', 'articles.isFeatured:desc');
    const { sql, bindings } = applySort(db('authors').select('id'), registry, 'api::author.author', specs, undefined, {
      status: 'draft',
      locale: 'fr',
    })
      .toSQL()
      .toNative();
    expect(sql).toBe(
      `select "id" from "authors" order by (SELECT bool_or("_vs1"."v$isFeatured") FROM ` +
        '"articles" AS "_vs1" WHERE "_vs1"."data" @> jsonb_build_object($1::text, "authors"."document_id") AND ' +
        '"_vs1"."published_at" IS NULL AND "_vs1"."locale" = $2) desc, "id" asc',
    );
    expect(bindings).toEqual(['author', 'fr']);
  });

  it('a single component is read in place, a repeatable one aggregated over its items', () => {
    expect(orderBy(resolve('seo.metaTitle')).sql).toBe(`("articles"."data"->$1)->>'metaTitle' asc, "id" asc`);
    expect(orderBy(resolve('seo.keywords.value:desc'))).toEqual({
      sql:
        `(SELECT MAX("_vs1".v->>'value') FROM jsonb_array_elements(CASE WHEN ` +
        `jsonb_typeof(("articles"."data"->$1)->$2) = 'array' THEN ("articles"."data"->$3)->$4 END) AS ` +
        `"_vs1"(v)) desc, "id" asc`,
      bindings: ['seo', 'keywords', 'seo', 'keywords'],
    });
  });

  it('keeps the id tie-breaker when sorting by a related id', () => {
    expect(orderBy(resolve('author.id')).sql).toMatch(/LIMIT 1\) asc, "id" asc$/);
  });
});
