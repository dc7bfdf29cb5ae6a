import { describe, expect, it } from 'vitest';
import { createEnv } from '../../../../core/config/env.ts';
import { deepMerge } from '../../../../core/config/merge.ts';

describe('env()', () => {
  const env = createEnv({
    S: 'text',
    I: '42',
    F: '1.5',
    B: 'true',
    B0: 'false',
    J: '{"a":[1]}',
    A: 'x, y,z',
    AB: '[p,"q"]',
    E: '',
  });
  it('reads strings with defaults, treating empty values as unset', () => {
    expect(env('S')).toBe('text');
    expect(env('MISSING', 'dflt')).toBe('dflt');
    expect(env('E', 'dflt')).toBe('dflt');
    expect(env('MISSING')).toBeUndefined();
  });
  it('casts with int, float, bool, json and array', () => {
    expect(env.int('I')).toBe(42);
    expect(env.int('MISSING', 7)).toBe(7);
    expect(env.float('F')).toBe(1.5);
    expect(env.bool('B')).toBe(true);
    expect(env.bool('B0', true)).toBe(false);
    expect(env.json('J')).toEqual({ a: [1] });
    expect(env.array('A')).toEqual(['x', 'y', 'z']);
    expect(env.array('AB')).toEqual(['p', 'q']);
    expect(env.array('MISSING', ['d'])).toEqual(['d']);
  });
  it('names the variable when its JSON is invalid', () => {
    expect(() => createEnv({ J: '{' }).json('J')).toThrow(/J/);
  });
});

describe('deepMerge', () => {
  it('merges objects recursively and replaces everything else', () => {
    expect(deepMerge({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2] }, e: 2 })).toEqual({
      a: { b: 1, c: [2] },
      d: 1,
      e: 2,
    });
  });
  it('never lets a key rewrite a prototype', () => {
    const merged = deepMerge({}, JSON.parse('{"__proto__":{"polluted":true}}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
  });
});
