import { describe, expect, it } from 'vitest';
import {
  applyRelationInput,
  parseRelationInput,
  type RelationInput,
} from '../../../../core/documents/relation-input.ts';

const parse = (value: unknown): RelationInput => {
  const r = parseRelationInput(value, ['rel']);
  if ('issue' in r) throw new Error(r.issue.message);
  return r.input;
};
const apply = (current: string[], value: unknown) => applyRelationInput(current, parse(value));

describe('relation inputs', () => {
  it('treats a documentId, an array and {set} as a full replacement, and null as clearing', () => {
    expect(apply(['a'], 'b')).toEqual(['b']);
    expect(apply(['a'], ['b', 'c', 'b'])).toEqual(['b', 'c']);
    expect(apply(['a'], { set: [{ documentId: 'c' }] })).toEqual(['c']);
    expect(apply(['a'], null)).toEqual([]);
  });
  it('disconnects, then connects each item at its position (default: the end)', () => {
    expect(apply(['a', 'b', 'c'], { disconnect: ['b'], connect: ['d'] })).toEqual(['a', 'c', 'd']);
    expect(apply(['a', 'b'], { connect: [{ documentId: 'x', position: { start: true } }] })).toEqual(['x', 'a', 'b']);
    expect(apply(['a', 'b'], { connect: [{ documentId: 'x', position: { before: 'b' } }] })).toEqual(['a', 'x', 'b']);
    expect(
      apply(['a', 'b'], {
        connect: [
          { documentId: 'x', position: { after: 'a' } },
          { documentId: 'y', position: { after: 'x' } },
        ],
      }),
    ).toEqual(['a', 'x', 'y', 'b']);
    expect(apply(['a', 'b', 'c'], { connect: [{ documentId: 'c', position: { start: true } }] })).toEqual([
      'c',
      'a',
      'b',
    ]);
    // connecting an already connected item moves it to the end (Strapi's default position)
    expect(apply(['a', 'b'], { connect: ['a'] })).toEqual(['b', 'a']);
  });
  it('reports an anchor that is not connected', () => {
    expect(apply(['a'], { connect: [{ documentId: 'x', position: { before: 'zzz' } }] })).toMatch(/zzz/);
  });
  it('refuses set with connect, duplicates in connect, bad ids, positions outside connect and unknown keys', () => {
    for (const bad of [
      { set: ['a'], connect: ['b'] },
      { connect: ['a', 'a'] },
      5,
      [{}],
      { connect: [{ documentId: 'a', position: { middle: 1 } }] },
      { add: ['a'] },
      ['has space'],
      [{ documentId: 'a', position: { start: true } }],
    ]) {
      expect('issue' in parseRelationInput(bad, ['rel'])).toBe(true);
    }
  });
});
