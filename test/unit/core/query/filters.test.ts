import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { errorOf } from '../../../helpers/errors.ts';
import { MAX_FILTER_DEPTH, resolveFilters } from '../../../../core/query/filters.ts';
import type { FieldRef } from '../../../../core/query/types.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';

const ARTICLE = 'api::article.article';
let registry: Registry;
let bare: Registry;
beforeAll(async () => {
  registry = await blogRegistry();
  bare = await blogRegistry({ upload: false });
});

const resolve = (raw: unknown) => resolveFilters(registry, ARTICLE, raw);
const attr = (name: string, type: string): FieldRef => ({ kind: 'attribute', name, type }) as FieldRef;
/** An article attribute with read indexes: read from its generated column. */
const indexed = (name: string, type: string): FieldRef => ({ ...attr(name, type), column: `v$${name}` }) as FieldRef;
const views = indexed('views', 'integer');
const title = indexed('title', 'string');

describe('resolveFilters: shapes', () => {
  it('nothing to filter on', () => {
    for (const raw of [undefined, null, '', {}, { $and: [] }, { $or: [{}] }, { title: {} }, { title: undefined }])
      expect(resolve(raw)).toBeUndefined();
  });

  it('a bare value is $eq, a bare array $in', () => {
    expect(resolve({ title: 'x' })).toEqual({ type: 'condition', field: title, operator: '$eq', value: 'x' });
    expect(resolve({ views: ['1', '2'] })).toEqual({ type: 'condition', field: views, operator: '$in', value: [1, 2] });
  });

  it('sibling keys and operators are ANDed', () => {
    expect(resolve({ title: 'x', views: { $gt: '1', $lt: '9' } })).toEqual({
      type: 'and',
      nodes: [
        { type: 'condition', field: title, operator: '$eq', value: 'x' },
        {
          type: 'and',
          nodes: [
            { type: 'condition', field: views, operator: '$gt', value: 1 },
            { type: 'condition', field: views, operator: '$lt', value: 9 },
          ],
        },
      ],
    });
  });

  it('an array on a single-value operator is an OR of that operator', () => {
    expect(resolve({ title: { $contains: ['a', 'b'] } })).toEqual({
      type: 'or',
      nodes: [
        { type: 'condition', field: title, operator: '$contains', value: 'a' },
        { type: 'condition', field: title, operator: '$contains', value: 'b' },
      ],
    });
  });

  it('$and/$or take arrays, or objects whose keys are all indexes (qs past its arrayLimit)', () => {
    const expected = {
      type: 'or',
      nodes: [
        { type: 'condition', field: title, operator: '$eq', value: 'a' },
        { type: 'condition', field: title, operator: '$eq', value: 'b' },
      ],
    };
    expect(resolve({ $or: [{ title: 'a' }, { title: 'b' }] })).toEqual(expected);
    expect(resolve({ $or: { 150: { title: 'b' }, 7: { title: 'a' } } })).toEqual(expected);
    expect(resolve({ views: { $in: { 1: '2', 0: '1' } } })).toEqual({
      type: 'condition',
      field: views,
      operator: '$in',
      value: [1, 2],
    });
  });

  it('$not at root and at attribute level; a bare value under $not is $eq', () => {
    expect(resolve({ $not: { title: 'x' } })).toEqual({
      type: 'not',
      node: { type: 'condition', field: title, operator: '$eq', value: 'x' },
    });
    expect(resolve({ views: { $not: { $gt: '3' } } })).toEqual({
      type: 'not',
      node: { type: 'condition', field: views, operator: '$gt', value: 3 },
    });
    expect(resolve({ views: { $not: '3' } })).toEqual({
      type: 'not',
      node: { type: 'condition', field: views, operator: '$eq', value: 3 },
    });
  });

  it('system fields, and locale only on localized types', () => {
    expect(resolve({ documentId: 'abc' })).toMatchObject({ field: { kind: 'system', name: 'documentId' } });
    expect(resolve({ locale: 'en' })).toMatchObject({ field: { kind: 'system', name: 'locale' } });
    expect(resolve({ id: { $in: ['1', 2] } })).toMatchObject({
      field: { kind: 'system', name: 'id' },
      value: ['1', '2'],
    });
    expect(errorOf(() => resolveFilters(registry, 'api::tag.tag', { locale: 'en' })).message).toBe(
      'Invalid key locale',
    );
  });

  it('private attributes only when the caller allows them; passwords never', () => {
    expect(errorOf(() => resolve({ internalNotes: 'x' })).details).toEqual({
      key: 'internalNotes',
      path: 'internalNotes',
      source: 'query',
      param: 'filters',
    });
    expect(resolveFilters(registry, ARTICLE, { internalNotes: 'x' }, { allowPrivate: true })).toMatchObject({
      field: { name: 'internalNotes' },
    });
  });
});

describe('resolveFilters: casts', () => {
  const castValueOf = (field: string, op: string, raw: unknown): unknown =>
    (resolve({ [field]: { [op]: raw } }) as { value: unknown }).value;

  it("casts to the attribute type with the write path's normalisation", () => {
    expect(castValueOf('views', '$eq', '12')).toBe(12);
    expect(castValueOf('views', '$lt', '2.5')).toBe(2.5); // integers take any number, as Strapi's NumberField
    expect(castValueOf('rating', '$gte', '-0')).toBe(0);
    expect(castValueOf('isFeatured', '$eq', 'true')).toBe(true);
    expect(castValueOf('isFeatured', '$eq', '0')).toBe(false);
    expect(castValueOf('publishDate', '$eq', '2024-03-01T23:00:00-02:00')).toBe('2024-03-02');
    expect(castValueOf('readingTime', '$eq', '07:05')).toBe('07:05:00');
    expect(castValueOf('createdAt', '$gt', '2024-01-01')).toBe('2024-01-01T00:00:00.000Z');
    expect(castValueOf('createdAt', '$gt', '2024-01-01T10:00:00+02:00')).toBe('2024-01-01T08:00:00.000Z');
    // constraints are not type: an email filter need not be an email, an enum value need not exist
    expect(castValueOf('contactEmail', '$eq', 'nobody')).toBe('nobody');
    expect(castValueOf('category', '$eq', 'sports')).toBe('sports');
  });

  it('json values: JSON text is parsed, other text is a JSON string', () => {
    expect(castValueOf('meta', '$eq', '{"a":[1,2]}')).toEqual({ a: [1, 2] });
    expect(castValueOf('meta', '$eq', '3')).toBe(3);
    expect(castValueOf('meta', '$eq', 'plain')).toBe('plain');
  });

  it('text operators keep the text, numbers as written', () => {
    expect(castValueOf('views', '$contains', '1')).toBe('1');
    expect(castValueOf('title', '$containsi', 12)).toBe('12');
  });

  it('$null/$notNull take booleans and their spellings', () => {
    expect(castValueOf('rating', '$null', 'true')).toBe(true);
    expect(castValueOf('rating', '$notNull', 'false')).toBe(false);
    expect(castValueOf('rating', '$null', false)).toBe(false);
    expect(errorOf(() => castValueOf('rating', '$null', 'maybe')).details).toMatchObject({
      key: 'rating',
      path: 'rating.$null',
    });
  });

  it('null only for $eq/$ne', () => {
    expect(resolve({ rating: null })).toEqual({
      type: 'condition',
      field: indexed('rating', 'float'),
      operator: '$eq',
      value: null,
    });
    expect(castValueOf('rating', '$ne', null)).toBeNull();
    expect(errorOf(() => castValueOf('rating', '$gt', null)).message).toBe('rating.$gt cannot be null');
    expect(errorOf(() => castValueOf('rating', '$in', ['1', null])).details).toMatchObject({ path: 'rating.$in.1' });
  });

  it('a value that cannot be cast is a 400 naming the key and where it sits, with value null', () => {
    expect(errorOf(() => castValueOf('views', '$eq', 'ten'))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'views.$eq must be a `number` type',
      details: { key: 'views', path: 'views.$eq', source: 'query', param: 'filters', value: null },
    });
    // dates in Strapi 5.54's words, without details
    expect(errorOf(() => resolve({ $or: [{ publishDate: 'soon' }] }))).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid format, expected yyyy-MM-dd',
      details: {},
    });
    expect(errorOf(() => castValueOf('title', '$eq', { nested: 'x' })).message).toBe(
      'title.$eq must be a single value',
    );
    expect(errorOf(() => castValueOf('title', '$contains', 'a\u0000')).details).toMatchObject({ key: 'title' });
    expect(errorOf(() => castValueOf('views', '$eq', '1e999')).details).toMatchObject({ key: 'views' });
    expect(errorOf(() => castValueOf('id', '$eq', '1.5')).details).toMatchObject({ key: 'id' });
  });

  it('$between takes exactly two values', () => {
    expect(castValueOf('views', '$between', ['1', '5'])).toEqual([1, 5]);
    for (const bad of ['1', ['1'], ['1', '2', '3']])
      expect(errorOf(() => castValueOf('views', '$between', bad)).message).toBe(
        'views.$between expects an array of two values',
      );
  });
});

describe('resolveFilters: refusals', () => {
  // the paths as Strapi 5.54 reports them: the attributes leading to the key, null at the top
  it('unknown attributes and operators, and operators in the wrong case, are invalid keys', () => {
    expect(errorOf(() => resolve({ nope: 'x' })).details).toEqual({
      key: 'nope',
      path: null,
      source: 'query',
      param: 'filters',
    });
    expect(errorOf(() => resolve({ title: { $EQ: 'x' } })).details).toEqual({
      key: '$EQ',
      path: 'title',
      source: 'query',
      param: 'filters',
    });
    expect(errorOf(() => resolve({ $or: [{ title: { $like: 'x' } }] }))).toMatchObject({
      message: 'Invalid key $like at title',
      details: { key: '$like', path: 'title' },
    });
    expect(errorOf(() => resolve({ $eq: 'x' })).message).toBe('Invalid key $eq');
    expect(errorOf(() => resolve({ title: { $or: ['x'] } })).message).toBe('Invalid key $or at title');
    expect(errorOf(() => resolve({ meta: { $between: ['1', '2'] } })).message).toBe('Invalid key $between at meta');
  });

  it('$and/$or need arrays of objects, $not an object, filters an object', () => {
    expect(errorOf(() => resolve({ $or: { title: 'x' } })).message).toBe('Invalid value of $or: expected an array');
    expect(errorOf(() => resolve({ $and: 'x' })).message).toBe('Invalid value of $and: expected an array');
    expect(errorOf(() => resolve({ $and: ['x'] })).details).toMatchObject({ path: '$and.0' });
    expect(errorOf(() => resolve({ $not: 'x' })).message).toBe('Invalid value of $not: expected an object');
    expect(errorOf(() => resolve('x')).message).toBe('Invalid filters parameter: expected an object');
    expect(errorOf(() => resolve([{ title: 'x' }])).details).toMatchObject({ key: 'filters' });
  });

  it("operators on a component/dynamic zone itself are invalid keys; media need the upload plugin's file type", () => {
    for (const name of ['seo', 'blocks']) {
      expect(errorOf(() => resolve({ [name]: { $null: 'true' } }))).toMatchObject({
        message: `Invalid key $null at ${name}`,
        details: { key: '$null', path: name },
      });
    }
    // the blog's schemas alone: no `plugin::upload.file` to filter through
    expect(errorOf(() => resolveFilters(bare, ARTICLE, { cover: { $null: 'true' } }))).toMatchObject({
      message: 'Invalid key cover',
      details: { path: 'cover' },
    });
  });

  it('bounds nesting', () => {
    let deep: Record<string, unknown> = { title: 'x' };
    for (let i = 0; i <= MAX_FILTER_DEPTH; i++) deep = { $not: deep };
    expect(errorOf(() => resolve(deep)).message).toMatch(/nested more than/);
    // relations count as levels too (author.articles.author… is a cycle the schema allows)
    let cycle: Record<string, unknown> = { name: 'x' };
    for (let i = 0; i <= MAX_FILTER_DEPTH; i++) cycle = i % 2 === 0 ? { author: cycle } : { articles: cycle };
    expect(errorOf(() => resolve({ tags: { articles: cycle } })).message).toMatch(/nested more than/);
  });
});
