/**
 * Pieces of the GraphQL plugin that need no database: the depth limit (graphql-depth-limit's
 * counting, and no blow-up on fragment bombs or cycles), Strapi 4's pagination maths and names,
 * and nexus staying inside plugins/graphql.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { depthLimit } from '../../../plugins/graphql/limits.ts';
import { camelCase } from '../../../plugins/graphql/naming.ts';
import { windowOf } from '../../../plugins/graphql/plan/args.ts';
import { paginationValues } from '../../../plugins/graphql/plan/root.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const schema = buildSchema(`type Node { name: String next: Node } type Query { node: Node }`);
const check = (query: string, max = 3) => validate(schema, parse(query), [...specifiedRules, depthLimit(max)]);
const nested = (depth: number): string => (depth === 0 ? 'name' : `next { ${nested(depth - 1)} }`);

describe('depthLimit', () => {
  it('accepts a leaf at the limit and refuses one past it, at the offending field', () => {
    // node is at depth 0, its fields at 1: a leaf at depth 3 is node > next > next > name
    expect(check(`{ node { ${nested(2)} } }`)).toEqual([]);
    const errors = check(`query Deep { node { ${nested(3)} } }`);
    expect(errors.map((e) => e.message)).toEqual(["'Deep' exceeds maximum operation depth of 3"]);
    // `name`, at depth 4
    expect(errors[0].locations).toEqual([{ line: 1, column: 42 }]);
  });

  it('counts through fragments and ignores introspection', () => {
    expect(check(`{ node { ...a } } fragment a on Node { next { next { name } } }`)).toEqual([]);
    expect(check(`{ node { ...a } } fragment a on Node { next { next { next { name } } } }`)).toHaveLength(1);
    expect(check(`{ __schema { types { fields { type { ofType { ofType { name } } } } } } }`)).toEqual([]);
  });

  it('validates a fragment bomb in linear time and does not loop on cycles', () => {
    const fragments = Array.from({ length: 30 }, (_, i) =>
      i === 29 ? 'fragment f29 on Node { name }' : `fragment f${i} on Node { next { ...f${i + 1} ...f${i + 1} } }`,
    );
    const start = performance.now();
    expect(check(`{ node { ...f0 } } ${fragments.join(' ')}`, 100)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(1000);
    const cycle = check(`{ node { ...a } } fragment a on Node { next { ...b } } fragment b on Node { ...a }`, 100);
    expect(cycle.some((e) => /cannot spread fragment/i.test(e.message))).toBe(true);
  });
});

describe("Strapi 4's pagination", () => {
  const limits = { defaultLimit: 10, maxLimit: 100 };
  it('takes page/pageSize or start/limit, with defaults and caps', () => {
    expect(windowOf({}, limits)).toEqual({ start: 0, limit: 10 });
    expect(windowOf({ page: 3, pageSize: 5 }, limits)).toEqual({ start: 10, limit: 5 });
    expect(windowOf({ start: 20, limit: 5 }, limits)).toEqual({ start: 20, limit: 5 });
    expect(windowOf({ limit: -1 }, limits)).toEqual({ start: 0, limit: 100 });
    expect(windowOf({ limit: 500 }, limits)).toEqual({ start: 0, limit: 100 });
    expect(windowOf({ limit: -1 }, { defaultLimit: 10, maxLimit: null })).toEqual({ start: 0, limit: null });
    expect(windowOf({ page: 0, pageSize: 0 }, limits)).toEqual({ start: 0, limit: 1 });
    expect(() => windowOf({ page: 1, limit: 2 }, limits)).toThrow('Cannot use both page & offset pagination');
  });

  it('answers meta.pagination as Strapi 4 computes it', () => {
    expect(paginationValues({ start: 20, limit: 5 }, 42)).toEqual({ total: 42, page: 5, pageSize: 5, pageCount: 9 });
    expect(paginationValues({ start: 2, limit: null }, 42)).toEqual({ total: 42, page: 1, pageSize: 40, pageCount: 1 });
  });
});

describe('names', () => {
  it("splits words as lodash's camelCase does", () => {
    expect(['i18n', 'users-permissions', 'rich-text', 'provider_metadata'].map(camelCase)).toEqual([
      'i18N',
      'usersPermissions',
      'richText',
      'providerMetadata',
    ]);
  });
});

describe('nexus', () => {
  async function sources(dir: string): Promise<string[]> {
    const out: string[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) out.push(...(await sources(full)));
      else if (/\.[cm]?[jt]s$/.test(entry.name)) out.push(full);
    }
    return out;
  }

  it('is imported only inside plugins/graphql', async () => {
    const outside: string[] = [];
    for (const dir of ['core', 'database', 'plugins', 'scripts']) {
      for (const file of await sources(path.join(ROOT, dir))) {
        if (file.startsWith(path.join(ROOT, 'plugins/graphql/'))) continue;
        if (/from ['"]nexus/.test(await readFile(file, 'utf8'))) outside.push(file);
      }
    }
    expect(outside).toEqual([]);
  });
});
