import qs from 'qs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Registry } from '../../../../core/content-types/registry.ts';
import { readDependencies } from '../../../../core/cache/dependencies.ts';
import { restApiConfig } from '../../../../core/config/rest.ts';
import type { RawConfig } from '../../../../core/config/load.ts';
import { parseRestQuery } from '../../../../core/query/parse.ts';
import { blogRegistry } from '../../../helpers/blog-registry.ts';

const ARTICLE = 'api::article.article';
const AUTHOR = 'api::author.author';
const TAG = 'api::tag.tag';
const FILE = 'plugin::upload.file';

let registry: Registry;
beforeAll(async () => {
  registry = await blogRegistry();
});

/** The dependencies of a REST read of `uid` with this query string, sorted. */
function depsOf(query: string, uid = ARTICLE): string[] | null {
  const parsed = parseRestQuery(registry, uid, qs.parse(query), restApiConfig({ api: {} } as unknown as RawConfig));
  const deps = readDependencies(registry, uid, parsed);
  return deps ? [...deps].sort() : null;
}

describe('what a read depends on', () => {
  it('is the root alone for a plain list, whatever its fields, scalar filters and sort', () => {
    expect(depsOf('')).toEqual([ARTICLE]);
    expect(depsOf('fields[0]=title&filters[views][$gt]=3&sort=title&locale=fr')).toEqual([ARTICLE]);
  });

  it('adds populated relation targets and the file type for media', () => {
    expect(depsOf('populate=author')).toEqual([ARTICLE, AUTHOR]);
    expect(depsOf('populate[0]=cover&populate[1]=tags')).toEqual([ARTICLE, TAG, FILE]);
    expect(depsOf('populate=*')).toEqual([ARTICLE, AUTHOR, TAG, FILE].sort());
  });

  it('follows nested populates, into components and dynamic zones', () => {
    expect(depsOf('populate[author][populate]=avatar')).toEqual([ARTICLE, AUTHOR, FILE].sort());
    expect(depsOf('populate[seo][populate]=shareImage')).toEqual([ARTICLE, FILE]);
    expect(depsOf('populate[blocks][on][shared.quote][populate]=person')).toEqual([ARTICLE, AUTHOR]);
    expect(depsOf('populate[blocks][on][shared.media][populate]=file')).toEqual([ARTICLE, FILE]);
    // a component alone lives in the article's own row
    expect(depsOf('populate=seo')).toEqual([ARTICLE]);
  });

  it('adds the targets a filter or a sort goes through, however deep', () => {
    expect(depsOf('filters[author][name][$eq]=Ada')).toEqual([ARTICLE, AUTHOR]);
    expect(depsOf('filters[$or][0][tags][name][$eq]=x&filters[$or][1][views][$gt]=1')).toEqual([ARTICLE, TAG]);
    expect(depsOf('filters[author][avatar][name][$eq]=a.png')).toEqual([ARTICLE, AUTHOR, FILE].sort());
    expect(depsOf('sort=author.name')).toEqual([ARTICLE, AUTHOR]);
    expect(depsOf('filters[articles][title][$eq]=x', AUTHOR)).toEqual([ARTICLE, AUTHOR]);
  });

  it('keeps localizations on the root type', () => {
    expect(depsOf('populate=localizations')).toEqual([ARTICLE]);
  });

  it('reads GraphQL layouts: populate entries, nested objects and dynamic zone items', () => {
    const deps = readDependencies(registry, ARTICLE, {
      layout: [
        { kind: 'field', key: 'title', field: 'title' },
        {
          kind: 'object',
          key: 'attributes',
          layout: [{ kind: 'populate', key: 'writer', node: { attribute: 'author', layout: [] } }],
        },
        {
          kind: 'populate',
          key: 'blocks',
          node: { on: { 'shared.media': { layout: [{ kind: 'populate', key: 'file', node: {} }] } } },
        },
      ],
    });
    expect([...deps!].sort()).toEqual([ARTICLE, AUTHOR, FILE].sort());
  });

  it('is null (not cacheable) when an attribute cannot be resolved', () => {
    expect(readDependencies(registry, ARTICLE, { populate: { nope: {} } })).toBeNull();
  });
});
