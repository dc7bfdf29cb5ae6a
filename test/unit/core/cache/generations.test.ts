import { describe, expect, it } from 'vitest';
import { createGenerations, HOT_CHANGES, isHot } from '../../../../core/cache/generations.ts';

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

  it('are hot while they change more than HOT_CHANGES times a second, and cool down after', () => {
    const g = createGenerations();
    const r = g.record('api::a.a');
    for (let n = 1; n <= HOT_CHANGES; n++) g.apply('api::a.a', n);
    const now = r.heatAt;
    // HOT_CHANGES changes at once make a heat of HOT_CHANGES: not more than it
    expect(isHot(r, now)).toBe(false);
    g.apply('api::a.a', HOT_CHANGES + 1);
    expect(isHot(r, r.heatAt)).toBe(true);
    // forgotten with time: e^-1 of it after a second
    expect(isHot(r, r.heatAt + 1000)).toBe(false);
    expect(isHot(g.record('api::b.b'))).toBe(false);
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

  it('let a read be kept only if live since it started and none of its keys changed meanwhile', () => {
    const g = createGenerations();
    const before = g.seq;
    expect(g.keepable(before, [])).toBe(false);
    g.resume();
    // started before the listener was back: it may have missed a write
    expect(g.keepable(before, [])).toBe(false);
    const started = g.seq;
    expect(g.keepable(started, ['a', 'b'])).toBe(true);
    g.apply('b', 1);
    expect([g.keepable(started, ['a']), g.keepable(started, ['a', 'b'])]).toEqual([true, false]);
    expect(g.keepable(g.seq, ['a', 'b'])).toBe(true);
    const last = g.seq;
    g.suspend();
    expect(g.keepable(last, ['a'])).toBe(false);
  });
});
