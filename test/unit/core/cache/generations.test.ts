import { describe, expect, it } from 'vitest';
import { createGenerations } from '../../../../core/cache/generations.ts';

describe('generations in memory', () => {
  it('only ever move forward, each change stamped with the local sequence', () => {
    const g = createGenerations();
    const r = g.record('api::a.a');
    expect([r.generation, r.changedAt, g.seq]).toEqual([0, 0, 0]);
    g.apply('api::a.a', 3);
    expect([r.generation, r.changedAt]).toEqual([3, 1]);
    // a late or repeated notification changes nothing
    g.apply('api::a.a', 2);
    g.apply('api::a.a', 3);
    expect([r.generation, r.changedAt, g.seq]).toEqual([3, 1, 1]);
    expect(g.record('api::a.a')).toBe(r);
  });

  it('tell subscribers of a change before it is visible', () => {
    const g = createGenerations();
    const seen: Array<[string, number]> = [];
    g.subscribe((key) => seen.push([key, g.record(key).generation]));
    g.apply('k', 1);
    g.apply('k', 1);
    expect(seen).toEqual([['k', 0]]);
  });

  it('are not live until resumed, and every resume or suspend moves the reset mark past earlier reads', () => {
    const g = createGenerations();
    expect(g.live).toBe(false);
    const started = g.seq;
    g.resume();
    expect([g.live, g.resetAt > started]).toEqual([true, true]);
    const later = g.seq;
    g.suspend();
    expect([g.live, g.resetAt > later]).toEqual([false, true]);
  });
});
