import { describe, expect, it } from 'vitest';
import { createReadStatements, type CompiledRead, type ReadShape } from '../../../../core/documents/read-statements.ts';

/** A builder that counts its calls and writes the id where `place` says. */
function builder(place: (id: string | undefined) => CompiledRead) {
  const calls: Array<string | undefined> = [];
  return {
    calls,
    build: (id: string | undefined) => {
      calls.push(id);
      return place(id);
    },
  };
}

/** A read's shape; `params` as a caller may send them, plain or not (what the type allows or not). */
const shape = (over: Partial<Omit<ReadShape, 'params'>> & { params?: Record<string, unknown> } = {}): ReadShape =>
  ({
    uid: 'api::article.article',
    scope: { status: 'published', locale: 'en' },
    params: { populate: { author: true } },
    documentId: 'a1',
    ...over,
  }) as ReadShape;
const asBinding = (id: string | undefined): CompiledRead => ({
  sql: 'SELECT ? WHERE "document_id" = ? LIMIT ?',
  bindings: ['x', id ?? null, 1],
});

describe('reads kept by shape', () => {
  it('builds a shape once and puts each read its own document id', () => {
    const s = createReadStatements();
    const b = builder(asBinding);
    expect(s.compile(shape(), b.build)).toEqual({ sql: asBinding('a1').sql, bindings: ['x', 'a1', 1] });
    expect(s.compile(shape({ documentId: 'b2' }), b.build).bindings).toEqual(['x', 'b2', 1]);
    expect(s.compile(shape({ documentId: 'c3' }), b.build).bindings).toEqual(['x', 'c3', 1]);
    expect(b.calls).toHaveLength(1);
    // what it built with stands for no document
    expect(b.calls[0]).not.toMatch(/^[a-z0-9]*$/);
    expect(s.count).toBe(1);
  });

  it('keeps one statement per shape: scope, params, page and flags each make another', () => {
    const s = createReadStatements();
    const b = builder(asBinding);
    const shapes = [
      shape(),
      shape({ scope: { status: 'draft', locale: 'en' } }),
      shape({ scope: { status: 'published', locale: 'fr' } }),
      shape({ params: { populate: { tags: true } } }),
      shape({ documentId: undefined, limit: 25 }),
      shape({ documentId: undefined, limit: 25, offset: 25 }),
      shape({ documentId: undefined, limit: 25, count: true }),
      shape({ documentId: undefined, limit: 25, json: true }),
      shape({ uid: 'api::tag.tag' }),
    ];
    for (const sh of shapes) s.compile(sh, b.build);
    for (const sh of shapes) s.compile(sh, b.build);
    expect(b.calls).toHaveLength(shapes.length);
    expect(s.count).toBe(shapes.length);
  });

  it('keeps reads with filters or search by their values: the same values reuse it, others make another', () => {
    const s = createReadStatements();
    const b = builder(asBinding);
    const filtered = [
      shape({ params: { filters: { title: 'a' } } }),
      shape({ params: { filters: { title: 'b' } } }),
      shape({ params: { filters: { views: { $gte: '10' } } } }),
      shape({ params: { filters: { views: { $gte: 10 } } } }),
      shape({ params: { filters: { tags: { name: { $in: ['x', 'y'] } } } } }),
      shape({ params: { filters: { tags: { name: { $in: ['y', 'x'] } } } } }),
      shape({ params: { search: 'a' } }),
      shape({ params: { search: 'b' } }),
    ];
    for (const sh of filtered) s.compile(sh, b.build);
    for (const sh of filtered) expect(s.compile({ ...sh, documentId: 'b2' }, b.build).bindings).toEqual(['x', 'b2', 1]);
    expect(b.calls).toHaveLength(filtered.length);
    expect(s.count).toBe(filtered.length);
  });

  it('builds every read with what is not plain data in its params', () => {
    const s = createReadStatements();
    const b = builder(asBinding);
    const unkept = [
      shape({ params: { filters: { publishDate: { $lt: new Date(0) } } } }),
      shape({ params: { filters: { views: { $eq: Number.NaN } } } }),
      shape({ params: { filters: { views: { $lt: Number.POSITIVE_INFINITY } } } }),
      shape({ params: { populate: { author: new Map() } } }),
      shape({ params: { populate: { author: new Date(0) } } }),
      shape({ params: { populate: { author: 1n } } }),
      shape({ params: { populate: { [`a${'b'.repeat(9000)}`]: true } } }),
    ];
    for (const sh of unkept) s.compile(sh, b.build);
    for (const sh of unkept) expect(s.compile(sh, b.build).bindings).toEqual(['x', 'a1', 1]);
    expect(b.calls).toEqual(Array(unkept.length * 2).fill('a1'));
    expect(s.count).toBe(0);
  });

  it('takes a key set to undefined as absent, as reads do (most params carry `fields: undefined`)', () => {
    const s = createReadStatements();
    const b = builder(asBinding);
    s.compile(shape({ params: { fields: undefined, populate: { author: true } } }), b.build);
    s.compile(shape({ params: { populate: { author: true } }, documentId: 'b2' }), b.build);
    expect(b.calls).toHaveLength(1);
    expect(s.count).toBe(1);
  });

  it('keeps nothing when the id lands where it cannot be replaced: in the text, or inside a value', () => {
    const s = createReadStatements();
    const inText = builder((id) => ({ sql: `SELECT '${id ?? ''}'`, bindings: [] }));
    const inArray = builder((id) => ({ sql: 'SELECT ?', bindings: [[id ?? '']] }));
    const nowhere = builder(() => ({ sql: 'SELECT 1', bindings: [] }));
    // also a whole value: the other places would still hold the first read's id
    const alsoText = builder((id) => ({ sql: `SELECT ?, '${id ?? ''}'`, bindings: [id ?? null] }));
    const alsoArray = builder((id) => ({ sql: 'SELECT ?, ?', bindings: [id ?? null, [id ?? '']] }));
    for (const [i, b] of [alsoText, alsoArray].entries()) {
      s.compile(shape({ uid: `also-${i}` }), b.build);
      expect(s.compile(shape({ uid: `also-${i}`, documentId: 'b2' }), b.build)).toEqual(b.build('b2'));
    }
    // the first read of each answers with its own id, the marker nowhere
    for (const [i, b] of [inText, inArray, nowhere, alsoText, alsoArray].entries())
      expect(s.compile(shape({ uid: `first-${i}` }), b.build)).toEqual(b.build('a1'));
    expect(s.compile(shape({ uid: 'in-text' }), inText.build)).toEqual({ sql: "SELECT 'a1'", bindings: [] });
    expect(s.compile(shape({ uid: 'in-text', documentId: 'b2' }), inText.build)).toEqual({
      sql: "SELECT 'b2'",
      bindings: [],
    });
    expect(s.compile(shape({ uid: 'in-array', documentId: 'b2' }), inArray.build).bindings).toEqual([['b2']]);
    expect(s.count).toBe(0);
  });

  it('is bounded by bytes: the least recently used statements go first', () => {
    const s = createReadStatements(64 * 1024);
    const big = builder((id) => ({ sql: `SELECT ? ${' '.repeat(4000)}`, bindings: [id ?? null] }));
    for (let i = 0; i < 100; i++) s.compile(shape({ uid: `t${i}` }), big.build);
    expect(s.count).toBeGreaterThan(3);
    expect(s.count).toBeLessThan(10);
    // the newest is kept: built no more
    const before = big.calls.length;
    s.compile(shape({ uid: 't99', documentId: 'z' }), big.build);
    expect(big.calls.length).toBe(before);
    s.compile(shape({ uid: 't0', documentId: 'z' }), big.build);
    expect(big.calls.length).toBe(before + 1);
  });
});

describe('reads planned on every run, written with their values once read again', () => {
  const list = (): CompiledRead => ({
    sql: 'SELECT * FROM t WHERE "views" >= ? AND data \\? ? LIMIT ?',
    bindings: [10, "it's", 25],
  });
  const listing = (over: Partial<Omit<ReadShape, 'params'>> & { params?: Record<string, unknown> } = {}) =>
    shape({ documentId: undefined, limit: 25, params: { filters: { views: { $gte: 10 } } }, ...over });
  const written = `SELECT * FROM t WHERE "views" >= '10' AND data \\? 'it''s' LIMIT '25'`;

  /** read statements that have seen a read of the article type count `rows` */
  const counted = (rows: number, ...args: Parameters<typeof createReadStatements>) => {
    const s = createReadStatements(...args);
    s.answered('api::article.article', rows);
    return s;
  };

  it('runs a filtered read bound the first time, with its values written in from the second', () => {
    const s = counted(5000);
    const b = builder(list);
    expect(s.compile(listing(), b.build)).toEqual(list());
    expect(s.compile(listing(), b.build)).toEqual({ sql: written, bindings: [] });
    expect(s.compile(listing(), b.build)).toEqual({ sql: written, bindings: [] });
    expect(b.calls).toHaveLength(1);
  });

  it('writes in searches and pages past the first too, not what PostgreSQL plans once or a document id', () => {
    const s = counted(5000);
    const b = builder(list);
    const inlined = [listing({ params: { search: 'x' } }), listing({ params: {}, offset: 25 })];
    const bound = [
      listing({ params: {} }),
      listing({ params: {}, offset: 0 }),
      // a document's id changes from read to read: it stays a parameter
      listing({ documentId: 'a1' }),
    ];
    for (const sh of [...inlined, ...bound]) s.compile(sh, b.build);
    for (const sh of inlined) expect(s.compile(sh, b.build).bindings).toEqual([]);
    for (const sh of bound) expect(s.compile(sh, b.build).bindings).not.toEqual([]);
  });

  it('keeps values bound for a table no read has counted `large` rows of (PostgreSQL keeps a generic plan)', () => {
    const s = counted(4999);
    const b = builder(list);
    s.answered('api::article.article', Number.POSITIVE_INFINITY);
    // another type's large count is not this one's
    s.answered('api::tag.tag', 100_000);
    for (let i = 0; i < 3; i++) expect(s.compile(listing(), b.build)).toEqual(list());
    // once a read counts that many, the next read of the kept statement is written in
    s.answered('api::article.article', 5000);
    expect(s.compile(listing(), b.build)).toEqual({ sql: written, bindings: [] });
    expect(b.calls).toHaveLength(1);
  });

  it('keeps bound the values it cannot write: a `?` in a value', () => {
    const s = counted(5000);
    const b = builder(() => ({ sql: 'SELECT ? LIMIT ?', bindings: ['what?', 25] }));
    s.compile(listing(), b.build);
    expect(s.compile(listing(), b.build)).toEqual({ sql: 'SELECT ? LIMIT ?', bindings: ['what?', 25] });
  });

  it('writes values in for at most `inlinedBytes` of texts; an evicted read made again has its own back', () => {
    // two texts of 4009 characters fit, a third does not
    const s = counted(5000, 64 * 1024, 9000);
    const big = (v: number) => builder(() => ({ sql: `SELECT ? ${' '.repeat(4000)}`, bindings: [v] }));
    const twice = (v: number) => {
      const b = big(v);
      const sh = listing({ params: { filters: { views: v } } });
      s.compile(sh, b.build);
      return s.compile(sh, b.build).bindings;
    };
    expect(twice(1)).toEqual([]);
    expect(twice(2)).toEqual([]);
    // the budget is spent: a third stays bound
    expect(twice(3)).toEqual([3]);
    // the first is pushed out by others read once (which take no name), then made again
    for (let i = 100; i < 200; i++) s.compile(listing({ params: { filters: { views: i } } }), big(i).build);
    expect(twice(1)).toEqual([]);
    expect(twice(4)).toEqual([4]);
  });
});
