import { describe, expect, it } from 'vitest';
import { createStatementNamer } from '../../../database/prepared.ts';

describe('createStatementNamer', () => {
  it('names a SQL text the same way every time, and different texts differently', () => {
    const name = createStatementNamer();
    const a = name('select 1');
    expect(a).toMatch(/^vellum_[0-9a-f]{32}$/);
    expect(name('select 1')).toBe(a);
    expect(name('select 2')).not.toBe(a);
  });

  it('stops naming new shapes past its budget, and keeps naming the known ones', () => {
    const name = createStatementNamer(2);
    const a = name('a');
    const b = name('b');
    expect(name('c')).toBeUndefined();
    expect([name('a'), name('b')]).toEqual([a, b]);
  });

  it('each namer has its own budget (one per app)', () => {
    const one = createStatementNamer(1);
    const two = createStatementNamer(1);
    one('x');
    expect(one('y')).toBeUndefined();
    expect(two('y')).toBeDefined();
  });
});
