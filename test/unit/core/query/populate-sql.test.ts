import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { documentJson, type SelectContext, type SharedRenders } from '../../../../core/query/populate-sql.ts';
import type { PopulateTree } from '../../../../core/query/types.ts';
import { resolvePopulate } from '../../../../core/query/populate.ts';
import { prunePopulate } from '../../../../core/auth/populate-access.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';
import { bareQualified, withoutQuoted } from '../../../helpers/sql-text.ts';

let registry: Registry;
beforeAll(async () => {
  registry = await blogRegistry();
});

/** The article JSON compiled for `populate` (a list read's shared renders when `shared`). */
function compile(populate: PopulateTree, shared?: SharedRenders) {
  let n = 0;
  const ctx: SelectContext = {
    registry,
    scope: { status: 'published', locale: null },
    redact: true,
    alias: () => `t${++n}`,
    shared,
  };
  return documentJson(ctx, registry.contentType('api::article.article'), 'r', { fields: ['title'], populate });
}

describe('populate nodes under output keys', () => {
  it('an alias is the key of the output and reads the attribute it names', () => {
    const { sql } = compile({ first: { attribute: 'tags' }, tags: { fields: ['name'] } });
    expect(sql).toMatch(/^json_build_object\('id', "r"\."id", 'documentId', "r"\."document_id", 'title', /);
    expect(sql).toMatch(/, 'first', .*, 'tags', /);
    // two sub-selects over the stored ids of `tags`, none over a `first` attribute
    expect(sql.match(/jsonb_array_elements_text\(CASE WHEN jsonb_typeof\("r"\."data"->'tags'\)/g)).toHaveLength(2);
    expect(sql).not.toContain(`"r"."data"->'first'`);
  });

  it('a node with no attribute of that name is refused', () => {
    expect(() => compile({ first: { attribute: 'nope' } })).toThrow('Invalid key nope');
  });

  it('shared renders of a list read are one per node: aliases of one relation never share one', () => {
    const shared: SharedRenders = { root: 'r', page: '"v:page"', ctes: [] };
    compile({ a: { attribute: 'author', fields: ['name'] }, b: { attribute: 'author', fields: ['email'] } }, shared);
    expect(shared.ctes).toHaveLength(2);
    expect(shared.ctes[0].sql).toContain(`'name'`);
    expect(shared.ctes[0].sql).not.toContain(`'email'`);
    expect(shared.ctes[1].sql).toContain(`'email'`);
    // a window is cut from each document's own shared renders; a total is never shared
    const more: SharedRenders = { root: 'r', page: '"v:page"', ctes: [] };
    const { sql, bindings } = compile(
      {
        a: { attribute: 'tags', pagination: { start: 0, limit: 1 } },
        b: { attribute: 'gallery', total: true },
      },
      more,
    );
    expect(more.ctes).toHaveLength(1);
    expect(more.ctes[0].sql).toContain('"tags"');
    expect(sql).toMatch(/JOIN "v:shared:1" .* ORDER BY "t\d+"\."n" OFFSET \? LIMIT \?\) "t\d+"/);
    expect(bindings.slice(0, 2)).toEqual([0, 1]);
  });
});

describe('pagination and total of a populated list', () => {
  it('numbers the items in order and binds the window', () => {
    const { sql, bindings } = compile({ tags: { pagination: { start: 2, limit: 3 } } });
    const window =
      /row_number\(\) OVER \(ORDER BY "t\d+"\."n"\) AS "v:n" FROM .* ORDER BY "v:n" OFFSET \? LIMIT \?\) "t\d+"/;
    expect(sql).toMatch(window);
    expect(bindings.slice(-2)).toEqual([2, 3]);
    const open = compile({ tags: { pagination: { start: 1, limit: null } } });
    expect(open.sql).toMatch(/OFFSET \?\) "t\d+"/);
    expect(open.bindings.slice(-1)).toEqual([1]);
  });

  it('without pagination, compiles as before: no window', () => {
    expect(compile({ tags: {}, gallery: {}, blocks: {} }).sql).not.toContain('row_number');
  });

  it('total wraps the list as { nodes, total }, counting the same rows', () => {
    const { sql } = compile({ gallery: { total: true } });
    const wrapped = /json_build_object\('nodes', COALESCE\(\(SELECT json_agg\(.*\), '\[\]'::json\), 'total', /;
    expect(sql).toMatch(/'total', \(SELECT count\(\*\) FROM jsonb_array_elements_text\(/);
    expect(sql).toMatch(wrapped);
  });

  it('is refused on a single value', () => {
    expect(() => compile({ cover: { pagination: { start: 0, limit: 1 } } })).toThrow('cover is not a list');
    expect(() => compile({ tags: { pagination: { start: 0, limit: 1.5 } } })).toThrow('Invalid pagination of tags');
  });
});

describe('identifiers', () => {
  // every path of the compiler: owning and inverse relations (to-one and to-many), media, a
  // component, a dynamic zone, localizations, a populate's filters, sort, window and total
  const tree = (): PopulateTree => {
    const raw = {
      author: {
        populate: { articles: { filters: { title: { $eq: 'x' }, tags: { name: { $eq: 'y' } } }, sort: 'title:asc' } },
      },
      tags: { populate: { articles: { count: true } } },
      cover: true,
      gallery: true,
      seo: true,
      blocks: { on: { 'shared.quote': true, 'shared.media': { populate: { file: true } } } },
      localizations: true,
    };
    const resolved = resolvePopulate(registry, 'api::article.article', raw);
    return { ...resolved, tags: { ...resolved.tags, pagination: { start: 1, limit: 2 }, total: true } };
  };

  it.each([
    ['one document', undefined],
    ['a list (shared renders)', { root: 'r', page: '"v:page"', ctes: [] } as SharedRenders],
  ])('are all quoted in %s: no bare name is qualified or aliased', (_, shared) => {
    const compiled = compile(tree(), shared);
    const sql = [compiled.sql, ...(shared?.ctes.map((c) => c.sql) ?? [])].join(' ');
    expect(sql).toMatch(/"t\d+"\."document_id"/);
    expect(bareQualified(sql)).toEqual([]);
    // nor a generated alias left bare where a table is named
    expect(withoutQuoted(sql).match(/\b(?:r|t\d+)\b/g)).toBeNull();
  });
});

describe('permissions follow the attribute, not the key', () => {
  it('an alias of a relation the caller may not read is dropped; an allowed one kept under its key', () => {
    const allows = (action: string) => action !== 'api::author.author.find';
    const pruned = prunePopulate(
      registry,
      'api::article.article',
      {
        writer: { attribute: 'author' },
        labels: { attribute: 'tags' },
        blocks: { on: { 'shared.quote': { populate: { who: { attribute: 'person' } } } } },
      },
      allows,
    );
    expect(pruned).toEqual({ labels: { attribute: 'tags' }, blocks: { on: { 'shared.quote': { populate: {} } } } });
  });
});
