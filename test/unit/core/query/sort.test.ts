import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knex from 'knex';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { isAppError, type AppError } from '../../../../core/errors.ts';
import { applySort, resolveSort } from '../../../../core/query/sort.ts';
import type { FieldRef, SortSpec } from '../../../../core/query/types.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';

const ARTICLE = 'api::article.article';
let registry: Registry;
const db = knex({ client: 'pg' });
beforeAll(async () => {
  registry = await blogRegistry();
});
afterAll(async () => {
  await db.destroy();
});

const resolve = (raw: unknown): SortSpec[] => resolveSort(registry, ARTICLE, raw);
const attr = (name: string, type: string): FieldRef => ({ kind: 'attribute', name, type } as FieldRef);
const title = attr('title', 'string');
const views = attr('views', 'integer');

function errorOf(fn: () => unknown): ReturnType<AppError['toJSON']> {
  try {
    fn();
  } catch (err) {
    if (isAppError(err)) return err.toJSON();
    throw err;
  }
  throw new Error('expected an error');
}

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
    const expected = [{ field: views, order: 'desc' }, { field: title, order: 'asc' }];
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
      status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: 'nope', source: 'query', param: 'sort' },
    });
    for (const name of ['internalNotes', 'meta', 'body', 'author', 'cover', 'seo', 'blocks']) expect(errorOf(() => resolve(name)).message).toBe(`Invalid key ${name}`);
    expect(resolveSort(registry, ARTICLE, 'internalNotes', { allowPrivate: true })).toEqual([{ field: attr('internalNotes', 'string'), order: 'asc' }]);
    expect(errorOf(() => resolve('title.x')).details).toMatchObject({ key: 'x', path: 'title.x' });
  });

  it('paths through relations and components are not supported yet', () => {
    expect(errorOf(() => resolve('author.name:desc')).message).toBe('Sorting through author is not supported yet');
    expect(errorOf(() => resolve({ author: { name: 'asc' } })).message).toBe('Sorting through author is not supported yet');
    expect(errorOf(() => resolve({ seo: { metaTitle: 'asc' } })).details).toEqual({ key: 'seo', path: 'seo', source: 'query', param: 'sort' });
  });

  it('directions other than asc/desc, empty names and other shapes are refused', () => {
    for (const bad of ['title:up', 'title:', 'title:asc:desc', { title: 'up' }, { title: '' }]) {
      expect(errorOf(() => resolve(bad)).message).toBe('Invalid order. order can only be one of asc|desc');
    }
    expect(errorOf(() => resolve('title,,views')).message).toMatch(/empty/);
    expect(errorOf(() => resolve(':desc')).message).toMatch(/empty/);
    expect(errorOf(() => resolve(7)).message).toBe('Invalid sort parameter');
  });
});

describe('applySort', () => {
  const orderBy = (specs: SortSpec[], alias?: string): { sql: string; bindings: unknown[] } => {
    const { sql, bindings } = applySort(db('articles').select('id'), registry, ARTICLE, specs, alias).toSQL().toNative();
    return { sql: sql.replace(/^select "id" from "articles" order by /, ''), bindings: [...bindings] };
  };

  it('casts per type, then orders by id', () => {
    expect(orderBy(resolve('views:desc,title,isFeatured,publishDate'))).toEqual({
      sql: '("data"->>$1)::numeric desc, "data"->>$2 asc, ("data"->>$3)::boolean asc, "data"->>$4 asc, "id" asc',
      bindings: ['views', 'title', 'isFeatured', 'publishDate'],
    });
    expect(orderBy(resolve('createdAt:desc')).sql).toBe('"created_at" desc, "id" asc');
  });

  it('orders by id alone when nothing is asked, and adds no second id', () => {
    expect(orderBy([]).sql).toBe('"id" asc');
    expect(orderBy(resolve('id:desc')).sql).toBe('"id" desc');
  });

  it('qualifies columns with the alias', () => {
    expect(orderBy(resolve('title'), 'a').sql).toBe('"a"."data"->>$1 asc, "a"."id" asc');
  });
});
