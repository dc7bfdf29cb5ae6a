import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';

let t: TestApp;
let file: Record<string, any>;
const authors: string[] = [];
const tags: string[] = [];
let first: Record<string, any>;

const get = async (path: string) => {
  const res = await t.request('GET', path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

beforeAll(async () => {
  t = await startApp();
  file = await t.app.documents('plugin::upload.file').create({
    data: {
      name: 'p.png',
      hash: 'p_1',
      ext: '.png',
      mime: 'image/png',
      size: 1,
      url: '/uploads/p_1.png',
      provider: 'local',
      width: 4,
      height: 4,
    },
  });
  for (let i = 0; i < 3; i++) {
    authors.push(
      (
        await t.request('POST', '/api/authors', {
          data: {
            name: `Author ${i}`,
            email: `a${i}@x.io`,
            avatar: file.id,
            address: { city: `City ${i}` },
            socials: [{ platform: 'github', url: `gh${i}` }],
          },
        })
      ).body.data.documentId,
    );
  }
  for (const name of ['alpha', 'beta', 'gamma', 'delta'])
    tags.push((await t.request('POST', '/api/tags', { data: { name } })).body.data.documentId);
  for (let i = 0; i < 30; i++) {
    const res = await t.request('POST', '/api/articles', {
      data: {
        title: `Article ${String(i).padStart(2, '0')}`,
        views: i,
        internalNotes: 'never shown',
        author: authors[i % 3],
        tags: [tags[i % 4], tags[(i + 1) % 4], tags[(i + 2) % 4]],
        cover: file.id,
        gallery: [file.id],
        seo: { metaTitle: `Meta ${i}`, shareImage: file.id, keywords: [{ value: `k${i}` }, { value: 'common' }] },
        blocks: [
          { __component: 'shared.rich-text', body: `Body ${i}` },
          { __component: 'shared.quote', title: `Quote ${i}`, person: authors[(i + 1) % 3] },
          { __component: 'shared.media', file: file.id },
          { __component: 'shared.slider', files: [file.id, file.id] },
        ],
      },
    });
    if (i === 0) first = res.body.data;
  }
});
afterAll(async () => {
  await t?.close();
});

describe('fields', () => {
  it('returns only the listed scalars, plus id and documentId', async () => {
    const body = await get('/api/articles?fields[0]=title&fields[1]=views&pagination[pageSize]=2');
    expect(body.data[0]).toEqual({
      id: expect.any(Number),
      documentId: expect.any(String),
      title: 'Article 00',
      views: 0,
    });
    const comma = await get('/api/articles?fields=title,createdAt&pagination[pageSize]=1');
    expect(Object.keys(comma.data[0])).toEqual(['id', 'documentId', 'title', 'createdAt']);
    const star = await get('/api/articles?fields=*&pagination[pageSize]=1');
    expect(star.data[0]).toHaveProperty('summary');
  });

  it('refuses private, password, unknown and non-scalar fields', async () => {
    for (const f of ['internalNotes', 'nope', 'author', 'seo', 'blocks', 'cover']) {
      const res = await t.request('GET', `/api/articles?fields[0]=${f}`);
      expect(res.status, f).toBe(400);
      expect(res.body.error).toMatchObject({
        name: 'ValidationError',
        message: `Invalid key ${f}`,
        details: { param: 'fields' },
      });
    }
  });

  it('selects fields inside populate, for relations, media and components', async () => {
    const body = await get(
      `/api/articles/${first.documentId}?populate[author][fields][0]=name&populate[tags][fields][0]=name` +
        `&populate[cover][fields][0]=url&populate[seo][fields][0]=metaTitle`,
    );
    expect(body.data.author).toEqual({ id: expect.any(Number), documentId: authors[0], name: 'Author 0' });
    expect(body.data.tags.map((x: any) => Object.keys(x))).toEqual([
      ['id', 'documentId', 'name'],
      ['id', 'documentId', 'name'],
      ['id', 'documentId', 'name'],
    ]);
    expect(body.data.cover).toEqual({ id: file.id, documentId: file.documentId, url: '/uploads/p_1.png' });
    expect(body.data.seo).toEqual({ id: expect.any(Number), documentId: expect.any(String), metaTitle: 'Meta 0' });
  });
});

describe('populate syntaxes of the brief', () => {
  it('populate=* : every relation, media, component and dynamic zone, one level', async () => {
    const { data } = await get(`/api/articles/${first.documentId}?populate=*`);
    expect(data.author).toMatchObject({ documentId: authors[0] });
    expect(data.author).not.toHaveProperty('avatar');
    expect(data.tags).toHaveLength(3);
    expect(data.cover).toMatchObject({ id: file.id });
    expect(data.gallery).toHaveLength(1);
    expect(data.seo).toMatchObject({ metaTitle: 'Meta 0' });
    expect(data.seo).not.toHaveProperty('keywords');
    expect(data.blocks.map((b: any) => b.__component)).toEqual([
      'shared.rich-text',
      'shared.quote',
      'shared.media',
      'shared.slider',
    ]);
    expect(data.blocks[1]).not.toHaveProperty('person');
    expect(data.localizations).toEqual([]);
    expect(data).not.toHaveProperty('internalNotes');
  });

  it('populate[0]=a&populate[1]=b, and a relation nested in a relation', async () => {
    const two = await get(`/api/articles/${first.documentId}?populate[0]=author&populate[1]=tags`);
    expect(Object.keys(two.data).slice(-2)).toEqual(['author', 'tags']);
    const nested = await get(
      `/api/articles/${first.documentId}?populate[author][populate][0]=avatar&populate[author][populate][1]=articles`,
    );
    expect(nested.data.author.avatar).toMatchObject({ id: file.id, url: '/uploads/p_1.png' });
    expect(nested.data.author.articles.map((a: any) => a.title)).toContain('Article 00');
  });

  it('components and nested components, by dotted path', async () => {
    const { data } = await get(
      `/api/articles/${first.documentId}?populate[0]=seo&populate[1]=seo.keywords&populate[2]=seo.shareImage`,
    );
    expect(data.seo.keywords.map((k: any) => k.value)).toEqual(['k0', 'common']);
    expect(data.seo.shareImage).toMatchObject({ id: file.id });
  });

  it('dynamic zones: first level, the shared strategy, and the detailed one with `on`', async () => {
    const plain = await get(`/api/articles/${first.documentId}?populate[0]=blocks`);
    expect(plain.data.blocks[3]).not.toHaveProperty('files');
    const shared = await get(`/api/articles/${first.documentId}?populate[blocks][populate]=*`);
    expect(shared.data.blocks[1].person).toMatchObject({ documentId: authors[1] });
    expect(shared.data.blocks[3].files).toHaveLength(1); // the same file twice is stored once
    const detailed = await get(
      `/api/articles/${first.documentId}` +
        `?populate[blocks][on][shared.quote][populate][person][populate][0]=avatar` +
        `&populate[blocks][on][shared.slider][populate]=*`,
    );
    expect(detailed.data.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.slider']);
    expect(detailed.data.blocks[0].person.avatar).toMatchObject({ id: file.id });
    expect(detailed.data.blocks[1].files.map((f: any) => f.id)).toEqual([file.id]);
  });

  it('filters and sort inside populate, and count', async () => {
    const q =
      `populate[tags][filters][name][$in][0]=alpha&populate[tags][filters][name][$in][1]=gamma` +
      `&populate[tags][sort][0]=name:desc`;
    const { data } = await get(`/api/articles/${first.documentId}?${q}`);
    expect(data.tags.map((x: any) => x.name)).toEqual(['gamma', 'alpha']);
    const counted = await get(`/api/authors/${authors[0]}?populate[articles][count]=true`);
    expect(counted.data.articles).toEqual({ count: 10 });
    const filteredCount = await get(
      `/api/authors/${authors[0]}?populate[articles][count]=true&populate[articles][filters][views][$lt]=10`,
    );
    expect(filteredCount.data.articles).toEqual({ count: 4 });
  });

  it('refuses pagination inside populate, options where they mean nothing, and unknown keys', async () => {
    for (const q of [
      'populate[tags][pagination][limit]=2',
      'populate[tags][limit]=2',
      'populate[author][count]=true',
      'populate[seo][filters][metaTitle][$eq]=x',
      'populate[tags][count]=maybe',
    ]) {
      const res = await t.request('GET', `/api/articles?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
    }
  });
});

describe("a dynamic zone's `on`", () => {
  const blocksOf = async (query: string): Promise<unknown[]> =>
    (await get(`/api/articles/${first.documentId}?fields[0]=title&${query}`)).data.blocks;

  // Strapi 5.54 answers 200 and leaves the zone's other components out; a component the zone
  // does not allow never has items there, so naming only such components shows none
  it('ignores a component the zone does not allow', async () => {
    const quoted = await blocksOf('populate[blocks][on][shared.quote]=true');
    expect(quoted).toEqual([
      {
        __component: 'shared.quote',
        id: expect.any(Number),
        documentId: expect.any(String),
        title: 'Quote 0',
        body: null,
      },
    ]);
    expect(await blocksOf('populate[blocks][on][shared.seo]=true&populate[blocks][on][shared.quote]=true')).toEqual(
      quoted,
    );
    expect(await blocksOf('populate[blocks][on][shared.seo][populate]=*')).toEqual([]);
    expect(
      await blocksOf(
        'populate[blocks][on][shared.seo][populate][0]=keywords&populate[blocks][on][shared.quote][populate][0]=person',
      ),
    ).toEqual([{ ...(quoted[0] as object), person: expect.objectContaining({ documentId: authors[1] }) }]);
  });

  it('still checks what is asked of that component, and refuses a uid that is no component', async () => {
    expect(
      (await t.request('GET', '/api/articles?populate[blocks][on][shared.seo][populate][nope]=true')).body.error,
    ).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key nope at blocks',
      details: { key: 'nope', path: 'blocks', source: 'query', param: 'populate' },
    });
    expect((await t.request('GET', '/api/articles?populate[blocks][on][shared.nope]=true')).body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key shared.nope at blocks.on.shared.nope',
      details: { key: 'shared.nope', path: 'blocks.on.shared.nope', source: 'query', param: 'populate' },
    });
  });
});

// Each envelope is Strapi 5.54's answer to the same request: `path` is the attributes leading to
// an unknown key (null at the top), the path as written for an attribute that cannot be
// populated or a dotted path, and null inside a nested `fields`, `filters` or `sort`, whose
// errors are reported as `populate`.
describe('invalid populate and fields keys', () => {
  const cases: Array<[string, string, string | null]> = [
    ['populate=nope', 'nope', 'nope'],
    ['populate[0]=author&populate[1]=nope', 'nope', 'nope'],
    ['populate=author.nope', 'nope', 'author.nope'],
    ['populate=seo.nope', 'nope', 'seo.nope'],
    ['populate=blocks.nope', 'nope', 'blocks.nope'],
    ['populate=cover.nope', 'cover', 'cover'],
    ['populate=title', 'title', 'title'],
    ['populate[nope]=true', 'nope', null],
    ['populate[title]=true', 'title', 'title'],
    ['populate[author][nope]=true', 'nope', 'author'],
    ['populate[author][populate][nope]=true', 'nope', 'author'],
    ['populate[author][populate][name]=true', 'name', 'author.populate.name'],
    ['populate[author][populate][address][populate][nope]=true', 'nope', 'author.address'],
    ['populate[blocks][on][nope]=true', 'nope', 'blocks.on.nope'],
    ['populate[tags][count]=maybe', 'count', 'tags'],
    ['populate[author][fields][0]=nope', 'nope', null],
    ['populate[author][filters][nope]=x', 'nope', null],
    ['populate[author][sort]=nope', 'nope', null],
    ['populate[seo][fields][0]=nope', 'nope', null],
  ];
  it.each(cases)('%s', async (query, key, path) => {
    const res = await t.request('GET', `/api/articles?${query}`);
    const message = path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
    expect(res.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message,
        details: { key, path, source: 'query', param: 'populate' },
      },
    });
  });

  it('fields: null for an unknown name, the name for one that cannot be selected', async () => {
    const fields = async (query: string) => (await t.request('GET', `/api/articles?${query}`)).body.error;
    const error = (key: string, path: string | null) => ({
      status: 400,
      name: 'ValidationError',
      message: `Invalid key ${key}`,
      details: { key, path, source: 'query', param: 'fields' },
    });
    expect(await fields('fields[0]=nope')).toEqual(error('nope', null));
    expect(await fields('fields=title,nope')).toEqual(error('nope', null));
    expect(await fields('fields[0]=author')).toEqual(error('author', 'author'));
    expect(await fields('fields[0]=internalNotes')).toEqual(error('internalNotes', 'internalNotes'));
  });
});

describe('related documents shared by a page', () => {
  it('render once per list read (a CTE per relation/media attribute) and match each document read alone', async () => {
    const populate =
      'populate[author][populate][0]=avatar&populate[tags][fields][0]=name&populate[cover]=true' +
      '&populate[gallery]=true&populate[seo][populate]=*';
    t.queries.length = 0;
    const list = await get(`/api/articles?sort=views:asc&pagination[pageSize]=12&${populate}`);
    const [statement] = t.queries.filter((q) => q.includes('from "articles" as "r0"'));
    // author, tags, cover, gallery: each a render of the distinct documents the page references
    expect(statement.match(/ AS MATERIALIZED \(/g)).toHaveLength(5);
    expect(list.data).toHaveLength(12);
    // 12 articles reference 3 authors and 4 tags: each populated entry is still the document's own
    for (const doc of list.data) {
      const alone = await get(`/api/articles/${doc.documentId}?${populate}`);
      expect(doc).toEqual(alone.data);
    }
    expect(new Set(list.data.map((d: any) => d.author.documentId)).size).toBe(3);
    expect(list.data[0].tags.map((x: any) => x.name)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('a relation with its own filters, sort or count, and a one-document read keep the per-document form', async () => {
    t.queries.length = 0;
    await get(
      `/api/articles?populate[tags][filters][name][$ne]=beta&populate[author][fields][0]=name&pagination[pageSize]=3`,
    );
    const [statement] = t.queries.filter((q) => q.includes('from "articles" as "r0"'));
    // only the author is shared; the filtered tags are looked up per article
    expect(statement.match(/ AS MATERIALIZED \(/g)).toHaveLength(2);
    t.queries.length = 0;
    await get(`/api/articles/${first.documentId}?populate=*`);
    expect(t.queries.join('\n')).not.toContain('MATERIALIZED');
  });
});

describe('cost', () => {
  it('a 25-row list with deep populate is one SQL statement, and a 100-row one too', async () => {
    const deep = [
      'populate[author][populate][0]=avatar',
      'populate[author][populate][1]=socials',
      'populate[author][populate][2]=address',
      'populate[tags][fields][0]=name',
      'populate[cover]=true',
      'populate[gallery]=true',
      'populate[seo][populate][0]=shareImage',
      'populate[seo][populate][1]=keywords',
      'populate[blocks][on][shared.quote][populate][person][populate][0]=avatar',
      'populate[blocks][on][shared.media][populate][0]=file',
      'populate[blocks][on][shared.slider][populate][0]=files',
      'populate[blocks][on][shared.rich-text][populate]=*',
      'populate[localizations]=true',
    ].join('&');
    // as the Public role (the blog grants it find on everything populated here), whose grants are cached
    const statements = async (
      size: number,
      headers: Record<string, string> = { authorization: '' },
    ): Promise<string[]> => {
      t.queries.length = 0;
      const res = await t.request('GET', `/api/articles?pagination[pageSize]=${size}&${deep}`, undefined, headers);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toHaveLength(Math.min(size, 30));
      expect(res.body.data[0].blocks[1].person.avatar.id).toBe(file.id);
      return [...t.queries];
    };
    await statements(1);
    const small = await statements(25);
    expect(small).toHaveLength(1);
    expect(await statements(100)).toHaveLength(1);
    // the page and its total together (an unfiltered total is the kept row count)
    expect(small[0]).toMatch(/vellum_row_counts/);
    // an API token is looked up once (and its lastUsedAt written at most once a minute), then
    // kept in memory: no statement more, whatever the page size
    await statements(1, {});
    await statements(1, {});
    expect(await statements(25, {})).toHaveLength(1);
    expect(await statements(100, {})).toHaveLength(1);
  });
});
