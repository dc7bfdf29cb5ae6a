import { describe, expect, it } from 'vitest';
import { newDocumentId } from '../../../../core/documents/document-id.ts';
import { DOCUMENT_ID } from '../../../../core/documents/relation-input.ts';

describe('newDocumentId', () => {
  const ids = Array.from({ length: 10_000 }, () => newDocumentId());

  it("has cuid2's shape (24 of [a-z0-9], a letter first), which relation input accepts", () => {
    for (const id of ids) {
      expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
      expect(DOCUMENT_ID.test(id)).toBe(true);
    }
  });

  it('never repeats, and uses every character about equally (no modulo bias)', () => {
    expect(new Set(ids).size).toBe(ids.length);
    const counts = new Map<string, number>();
    for (const id of ids) for (const c of id.slice(1)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // 230,000 characters: 6389 each expected, a standard deviation of about 79
    for (const n of counts.values()) expect(Math.abs(n - 230_000 / 36)).toBeLessThan(640);
    const firsts = new Set(ids.map((id) => id[0]));
    expect(firsts.size).toBe(26);
  });
});
