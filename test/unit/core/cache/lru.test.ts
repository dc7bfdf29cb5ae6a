import { describe, expect, it } from 'vitest';
import { createByteLru } from '../../../../core/cache/lru.ts';

describe('byte-bounded LRU', () => {
  it('drops the least recently used entries once over its budget', () => {
    const lru = createByteLru<string>(100);
    lru.set('a', 'A', 40);
    lru.set('b', 'B', 40);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 40);
    // b was the least recently used (a was read after it)
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', undefined, 'C']);
    expect([lru.bytes, lru.count]).toEqual([80, 2]);
  });

  it('refuses an entry over its per-entry limit, and replaces a key in place', () => {
    const lru = createByteLru<string>(100, 30);
    expect(lru.set('big', 'X', 31)).toBe(false);
    expect(lru.get('big')).toBeUndefined();
    expect(lru.set('k', 'one', 10)).toBe(true);
    expect(lru.set('k', 'two', 20)).toBe(true);
    expect([lru.get('k'), lru.bytes, lru.count]).toEqual(['two', 20, 1]);
    // a replacement too large removes the old value rather than keep it
    expect(lru.set('k', 'three', 50)).toBe(false);
    expect([lru.get('k'), lru.bytes]).toEqual([undefined, 0]);
  });

  it('deletes and clears', () => {
    const lru = createByteLru<number>(10);
    lru.set('a', 1, 3);
    lru.set('b', 2, 3);
    lru.delete('a');
    expect([lru.get('a'), lru.bytes]).toEqual([undefined, 3]);
    lru.clear();
    expect([lru.count, lru.bytes, lru.get('b')]).toEqual([0, 0, undefined]);
  });
});
