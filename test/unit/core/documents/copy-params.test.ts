import { describe, expect, it } from 'vitest';
import { copyParams } from '../../../../core/documents/copy-params.ts';

describe('copyParams', () => {
  it('copies plain objects and arrays at every depth, so rewriting the copy leaves the original as it was', () => {
    const original = {
      status: 'published',
      data: { title: 'a', tags: ['x', 'y'], seo: { meta: { title: 't' } } },
      fields: ['title'],
    };
    const before = structuredClone(original);
    const copy = copyParams(original);
    copy.status = 'draft';
    copy.data.title = 'b';
    copy.data.tags.push('z');
    copy.data.seo.meta.title = 'changed';
    copy.fields.length = 0;
    expect(original).toEqual(before);
    expect(copy).toEqual({
      status: 'draft',
      data: { title: 'b', tags: ['x', 'y', 'z'], seo: { meta: { title: 'changed' } } },
      fields: [],
    });
  });

  it('keeps values that are not plain data as the same objects (a Date, a Buffer, an instance, a function)', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    const when = new Date('2024-01-02T03:04:05Z');
    const bytes = Buffer.from('abc');
    const point = new Point(1);
    const fn = (): number => 1;
    const copy = copyParams({ data: { when, bytes, point, fn } });
    expect(copy.data.when).toBe(when);
    expect(copy.data.bytes).toBe(bytes);
    expect(Buffer.isBuffer(copy.data.bytes)).toBe(true);
    expect(copy.data.point).toBe(point);
    expect(copy.data.fn).toBe(fn);
  });

  it('keeps shared references shared and cycles cyclic, within the copy', () => {
    const shared = { n: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.self = cyclic;
    const copy = copyParams(cyclic);
    expect(copy).not.toBe(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy.shared).not.toBe(shared);
    expect(copy.again).toBe(copy.shared);
  });

  it('copies an own __proto__ key as a key, never as the prototype', () => {
    const original = JSON.parse('{"data":{"__proto__":{"polluted":true}}}') as { data: Record<string, unknown> };
    const copy = copyParams(original);
    expect(Object.getPrototypeOf(copy.data)).toBe(Object.prototype);
    expect((copy.data as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(copy.data)).toEqual(['__proto__']);
    // biome-ignore lint/suspicious/noProto: an own key named __proto__ is what this checks
    expect(copy.data.__proto__).not.toBe(original.data.__proto__);
  });
});
