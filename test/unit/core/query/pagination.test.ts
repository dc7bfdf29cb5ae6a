import { describe, expect, it } from 'vitest';
import { paginationMeta, parsePagination } from '../../../../core/query/pagination.ts';

const config = { defaultLimit: 25, maxLimit: 100, withCount: true };

describe('parsePagination', () => {
  it('defaults to page 1 of defaultLimit', () => {
    expect(parsePagination(undefined, config)).toEqual({ start: 0, limit: 25, style: 'page', withCount: true });
  });
  it('reads page/pageSize and start/limit, clamping sizes to [1, maxLimit] and start to >= 0', () => {
    expect(parsePagination({ page: '3', pageSize: '10' }, config)).toMatchObject({
      start: 20,
      limit: 10,
      style: 'page',
    });
    expect(parsePagination({ pageSize: '500' }, config).limit).toBe(100);
    expect(parsePagination({ pageSize: '0' }, config).limit).toBe(1);
    expect(parsePagination({ start: '-5', limit: '10' }, config)).toMatchObject({
      start: 0,
      limit: 10,
      style: 'offset',
    });
    expect(parsePagination({ limit: '-1' }, config).limit).toBe(100);
    expect(parsePagination({ limit: '-1' }, { ...config, maxLimit: null }).limit).toBeNull();
  });
  it('reads withCount in all of Strapi spellings', () => {
    for (const v of ['false', 'f', '0']) expect(parsePagination({ withCount: v }, config).withCount).toBe(false);
    for (const v of ['true', 't', '1']) expect(parsePagination({ withCount: v }, config).withCount).toBe(true);
    expect(() => parsePagination({ withCount: 'maybe' }, config)).toThrow(/withCount/);
  });
  it('serves a page below 1 as page 1 and a page size below 1 (-1 too) as 1, as Strapi 5.54 does', () => {
    expect(parsePagination({ page: '0', pageSize: '2' }, config)).toMatchObject({ start: 0, limit: 2, style: 'page' });
    expect(parsePagination({ page: '-3' }, config)).toMatchObject({ start: 0, limit: 25 });
    expect(parsePagination({ page: '2', pageSize: '-5' }, config)).toMatchObject({ start: 1, limit: 1 });
    expect(parsePagination({ page: '2', pageSize: '-1' }, config)).toMatchObject({ start: 1, limit: 1 });
  });
  it('refuses mixed styles, non-numbers and unknown keys', () => {
    expect(() => parsePagination({ page: '1', limit: '2' }, config)).toThrow(
      'Cannot use both page & offset pagination in the same query',
    );
    expect(() => parsePagination({ page: 'x' }, config)).toThrow(/page/);
    expect(() => parsePagination({ size: '2' }, config)).toThrow('Invalid key size');
    expect(() => parsePagination('7', config)).toThrow(/pagination/);
  });
});

describe('paginationMeta', () => {
  it('answers in the style asked', () => {
    expect(paginationMeta({ start: 20, limit: 10, style: 'page', withCount: true }, 42)).toEqual({
      page: 3,
      pageSize: 10,
      pageCount: 5,
      total: 42,
    });
    expect(paginationMeta({ start: 5, limit: 10, style: 'offset', withCount: true }, 42)).toEqual({
      start: 5,
      limit: 10,
      total: 42,
    });
    expect(paginationMeta({ start: 0, limit: 10, style: 'page', withCount: false }, null)).toEqual({
      page: 1,
      pageSize: 10,
    });
  });
});
