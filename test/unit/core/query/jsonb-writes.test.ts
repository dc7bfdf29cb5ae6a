import { describe, expect, it } from 'vitest';
import {
  copyAttributesToLocales,
  holds,
  holdsAny,
  listWithout,
  setAttribute,
  setRanks,
  withoutRank,
} from '../../../../core/query/jsonb-writes.ts';

describe('raw JSONB writes', () => {
  it('bind every attribute name and id, and quote the columns they write', () => {
    const hostile = `x'); DROP TABLE t; --`;
    const write = withoutRank(setAttribute(hostile, listWithout(hostile, 'doc')), hostile, 'doc');
    expect(write.sql).toBe(`jsonb_set("data", ARRAY[?]::text[], ("data" -> ?) - ?) #- ARRAY[?, ?, ?]::text[]`);
    expect(write.bindings).toEqual([hostile, hostile, 'doc', '$order', hostile, 'doc']);
    expect(holds('tags', 'doc', true)).toEqual({ sql: `"data" -> ? \\? ?`, bindings: ['tags', 'doc'] });
    expect(holds('author', 'doc', false)).toEqual({ sql: `"data" ->> ? = ?`, bindings: ['author', 'doc'] });
    expect(holdsAny('tags', ['a', 'b'], true).bindings).toEqual(['tags', ['a', 'b']]);
  });

  it('quote the table a statement names, whatever its name', () => {
    const ranks = setRanks('order', 'tags', 'doc', [{ id: 'a', rank: 1 }], 'fr');
    expect(ranks.sql).toMatch(/^UPDATE "order" AS "o" SET "data" = /);
    expect(ranks.sql).toMatch(/ AND "o"\."locale" = \?$/);
    expect(ranks.bindings.slice(-3)).toEqual([['a'], [1], 'fr']);
    expect(setRanks('order', 'tags', 'doc', [], null).sql).not.toContain('locale');
    const copy = copyAttributesToLocales('user', ['shared'], 'doc', 'en', true);
    expect(copy.sql).toMatch(/^UPDATE "user" AS "o" .* FROM "user" AS "s" WHERE /);
    expect(copy.sql).toContain(`"s"."published_at" IS NOT NULL`);
    expect(copy.bindings).toEqual([['shared'], 'doc', 'en']);
  });
});
