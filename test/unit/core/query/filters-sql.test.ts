import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import knex from 'knex';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { applyFilters, resolveFilters } from '../../../../core/query/filters.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';

const ARTICLE = 'api::article.article';
let registry: Registry;
// a pg query builder with no connection: enough to compile statements
const db = knex({ client: 'pg' });
beforeAll(async () => {
  registry = await blogRegistry();
});
afterAll(async () => {
  await db.destroy();
});

/** The WHERE clause and bindings `filters` compiles to (on an aliased table when `alias` is given). */
function where(filters: unknown, alias?: string): { sql: string; bindings: unknown[] } {
  const node = resolveFilters(registry, ARTICLE, filters);
  if (!node) throw new Error('no filter');
  const q = applyFilters(db(alias ? `articles as ${alias}` : 'articles').select('id'), registry, ARTICLE, node, alias);
  const { sql, bindings } = q.toSQL().toNative();
  return { sql: sql.replace(/^select "id" from "articles"( as "a")? where /, ''), bindings: [...bindings] };
}

describe('applyFilters: SQL per operator', () => {
  it('$eq compares the read index expression where there is one, else is a containment the GIN index serves', () => {
    expect(where({ title: 'x' })).toEqual({ sql: `("v$title" = $1::text)`, bindings: ['x'] });
    expect(where({ views: { $eq: '12' } })).toEqual({
      sql: `("v$views" = $1::numeric)`,
      bindings: ['12'],
    });
    expect(where({ isFeatured: 'true' })).toEqual({
      sql: `("v$isFeatured" = $1::boolean)`,
      bindings: [true],
    });
    // unbounded text (no maxLength) has no read index
    expect(where({ summary: 'x' })).toEqual({ sql: '("data" @> $1::jsonb)', bindings: ['{"summary":"x"}'] });
    expect(where({ slug: { $eq: 'a' } }).bindings).toEqual(['{"slug":"a"}']);
  });

  it('$eq null / $ne null / $null / $notNull read the text, NULL for absent and JSON null', () => {
    expect(where({ rating: null })).toEqual({ sql: `("data"->>'rating' IS NULL)`, bindings: [] });
    expect(where({ rating: { $ne: null } })).toEqual({ sql: `("data"->>'rating' IS NOT NULL)`, bindings: [] });
    expect(where({ rating: { $null: 'true' } }).sql).toBe(`("data"->>'rating' IS NULL)`);
    expect(where({ rating: { $null: 'false' } }).sql).toBe(`("data"->>'rating' IS NOT NULL)`);
    expect(where({ rating: { $notNull: true } }).sql).toBe(`("data"->>'rating' IS NOT NULL)`);
    expect(where({ rating: { $notNull: false } }).sql).toBe(`("data"->>'rating' IS NULL)`);
  });

  it('comparisons cast per type', () => {
    expect(where({ views: { $ne: '3' } })).toEqual({
      sql: `("v$views" <> $1::numeric)`,
      bindings: ['3'],
    });
    expect(where({ rating: { $lt: '4.5' } })).toEqual({
      sql: `("v$rating" < $1::numeric)`,
      bindings: ['4.5'],
    });
    expect(where({ price: { $lte: 1 } }).sql).toBe(`("v$price" <= $1::numeric)`);
    expect(where({ isFeatured: { $gt: 'false' } })).toEqual({
      sql: `("v$isFeatured" > $1::boolean)`,
      bindings: [false],
    });
    expect(where({ publishDate: { $gte: '2024-01-01' } })).toEqual({
      sql: `("v$publishDate" >= $1::text)`,
      bindings: ['2024-01-01'],
    });
    expect(where({ title: { $ne: 'x' } }).sql).toBe(`("v$title" <> $1::text)`);
  });

  it('$in is IN where indexed, else a containment per value; $notIn is NOT IN; empty lists are constants', () => {
    expect(where({ views: ['1', '2'] })).toEqual({
      sql: `("v$views" IN ($1::numeric, $2::numeric))`,
      bindings: ['1', '2'],
    });
    expect(where({ slug: ['a', 'b'] })).toEqual({
      sql: '(("data" @> $1::jsonb OR "data" @> $2::jsonb))',
      bindings: ['{"slug":"a"}', '{"slug":"b"}'],
    });
    expect(where({ views: { $notIn: ['1', '2'] } })).toEqual({
      sql: `("v$views" NOT IN ($1::numeric, $2::numeric))`,
      bindings: ['1', '2'],
    });
    expect(where({ views: { $in: [] } }).sql).toBe('(FALSE)');
    expect(where({ views: { $notIn: [] } }).sql).toBe('(TRUE)');
  });

  it('$between is inclusive BETWEEN', () => {
    expect(where({ views: { $between: ['1', '9'] } })).toEqual({
      sql: `("v$views" BETWEEN $1::numeric AND $2::numeric)`,
      bindings: ['1', '9'],
    });
  });

  it('text operators: LIKE, LOWER for the i variants, % and _ unescaped, a trailing backslash kept literal', () => {
    expect(where({ title: { $contains: 'a_b%' } })).toEqual({
      sql: `("data"->>'title' LIKE $1::text)`,
      bindings: ['%a_b%%'],
    });
    expect(where({ title: { $notContains: 'a' } }).sql).toBe(`("data"->>'title' NOT LIKE $1::text)`);
    expect(where({ title: { $containsi: 'A' } })).toEqual({
      sql: `(LOWER("data"->>'title') LIKE LOWER($1::text))`,
      bindings: ['%A%'],
    });
    expect(where({ title: { $notContainsi: 'A' } }).sql).toBe(`(LOWER("data"->>'title') NOT LIKE LOWER($1::text))`);
    expect(where({ title: { $startsWith: 'a' } }).bindings).toEqual(['a%']);
    expect(where({ title: { $startsWithi: 'a' } }).sql).toBe(`(LOWER("data"->>'title') LIKE LOWER($1::text))`);
    expect(where({ title: { $endsWith: 'a' } }).bindings).toEqual(['%a']);
    expect(where({ title: { $endsWithi: 'a\\' } }).bindings).toEqual(['%a\\\\']);
    expect(where({ title: { $endsWith: 'a\\\\' } }).bindings).toEqual(['%a\\\\']);
    expect(where({ title: { $eqi: 'A' } })).toEqual({
      sql: `(LOWER("data"->>'title') = LOWER($1::text))`,
      bindings: ['A'],
    });
    expect(where({ title: { $nei: 'A' } }).sql).toBe(`(LOWER("data"->>'title') <> LOWER($1::text))`);
  });

  it('json: equality narrowed by containment, JSON null as no value', () => {
    expect(where({ meta: '{"a":1}' })).toEqual({
      sql: `(("data" @> $1::jsonb AND NULLIF("data"->'meta', 'null'::jsonb) = $2::jsonb))`,
      bindings: ['{"meta":{"a":1}}', '{"a":1}'],
    });
    expect(where({ meta: { $ne: 'x' } })).toEqual({
      sql: `(NULLIF("data"->'meta', 'null'::jsonb) <> $1::jsonb)`,
      bindings: ['"x"'],
    });
  });

  it('system fields read their columns', () => {
    expect(where({ id: '7' })).toEqual({ sql: '("id" = $1::bigint)', bindings: ['7'] });
    expect(where({ documentId: { $in: ['a', 'b'] } })).toEqual({
      sql: '("document_id" IN ($1::text, $2::text))',
      bindings: ['a', 'b'],
    });
    expect(where({ locale: 'fr' }).sql).toBe('("locale" = $1::text)');
    expect(where({ createdAt: { $gt: '2024-01-01' } })).toEqual({
      sql: '("created_at" > $1::timestamptz)',
      bindings: ['2024-01-01T00:00:00.000Z'],
    });
    expect(where({ publishedAt: { $null: true } }).sql).toBe('("published_at" IS NULL)');
    expect(where({ updatedAt: { $startsWith: '2024' } }).sql).toBe(
      `(to_char("updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') LIKE $1::text)`,
    );
    expect(where({ id: { $contains: '1' } }).sql).toBe('("id"::text LIKE $1::text)');
  });

  it('groups nest in parentheses; $not wraps', () => {
    expect(where({ $or: [{ title: 'a' }, { $and: [{ views: { $gt: 1 } }, { $not: { rating: null } }] }] }).sql).toBe(
      `(("v$title" = $1::text) OR (("v$views" > $2::numeric) AND ` + `(NOT ("data"->>'rating' IS NULL))))`,
    );
  });

  it('qualifies columns with the alias', () => {
    expect(where({ title: 'x', id: 1, views: { $gt: 1 } }, 'a').sql).toBe(
      `(("a"."v$title" = $1::text) AND ("a"."id" = $2::bigint) AND ` + `("a"."v$views" > $3::numeric))`,
    );
  });

  it('never splices a value into the SQL', () => {
    const hostile = "x'); DROP TABLE articles; --";
    const { sql, bindings } = where({
      title: { $contains: hostile },
      summary: hostile,
      $or: [{ slug: { $in: [hostile] } }],
    });
    expect(sql).not.toContain('DROP');
    expect(bindings).toContain(`%${hostile}%`);
  });
});
