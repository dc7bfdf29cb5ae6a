import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { writeApp } from '../helpers/fixture-app.ts';

let t: TestApp;
let author: string;

beforeAll(async () => {
  t = await startApp();
  author = (await t.request('POST', '/api/authors', { data: { name: 'Quoted' } })).body.data.documentId;
});
afterAll(async () => {
  await t?.close();
});

const seo = { metaTitle: 'Meta', metaDescription: 'Desc', keywords: [{ value: 'one' }, { value: 'two' }] };

describe('components', () => {
  it('stores a single component with a nested repeatable one, each instance with an id and documentId', async () => {
    const res = await t.request('POST', '/api/articles', { data: { title: 'With seo', seo } });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('seo'); // not populated by default
    const read = await t.request(
      'GET',
      `/api/articles/${res.body.data.documentId}?populate[0]=seo&populate[1]=seo.keywords`,
    );
    const got = read.body.data.seo;
    expect(got).toMatchObject({ metaTitle: 'Meta', metaDescription: 'Desc' });
    expect(got.keywords.map((k: { value: string }) => k.value)).toEqual(['one', 'two']);
    const ids = [got.id, ...got.keywords.map((k: { id: number }) => k.id)];
    for (const id of ids) expect(Number.isInteger(id)).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(got.documentId).toMatch(/^[a-z0-9]{24}$/);
    // populate=* is one level: nested components are not included
    const star = await t.request('GET', `/api/articles/${res.body.data.documentId}?populate=*`);
    expect(star.body.data.seo).not.toHaveProperty('keywords');
    expect(star.body.data.seo.metaTitle).toBe('Meta');
  });

  it('validates component attributes by full path: types when writing the draft, the rest on publish', async () => {
    // Strapi 5.54's answers: a published POST writes a lenient draft (types only), then publishes
    // it, which checks `required`; so a type error is reported alone
    const typed = await t.request('POST', '/api/articles', {
      data: { title: 'x', seo: { metaDescription: 'no title', keywords: [{ value: 5 }] } },
    });
    expect(typed.status).toBe(400);
    expect(typed.body.error.details.errors.map((e: { path: string[] }) => e.path)).toEqual([
      ['seo', 'keywords', '0', 'value'],
    ]);
    const required = await t.request('POST', '/api/articles', {
      data: { title: 'x', seo: { metaDescription: 'no title', keywords: [{ value: '5' }] } },
    });
    expect(required.status).toBe(400);
    expect(required.body.error.details.errors).toEqual([
      {
        path: ['seo', 'metaTitle'],
        message: 'seo.metaTitle must be a `string` type, but the final value was: `null`.',
        name: 'ValidationError',
        value: null,
      },
    ]);
  });

  it('rejects unknown keys inside a component and wrong shapes', async () => {
    const unknown = await t.request('POST', '/api/articles', {
      data: { title: 'x', seo: { metaTitle: 'm', bogus: 1 } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe('Invalid key bogus');
    const notArray = await t.request('POST', '/api/authors', {
      data: { name: 'Shape', socials: { platform: 'github' } },
    });
    expect(notArray.status).toBe(400);
    expect(notArray.body.error.details.errors[0].path).toEqual(['socials']);
    const notObject = await t.request('POST', '/api/articles', { data: { title: 'x', seo: 'text' } });
    expect(notObject.status).toBe(400);
  });

  it('replaces components on update, keeping an instance identity when its id is sent back', async () => {
    const created = await t.request('POST', '/api/authors', {
      data: {
        name: 'Socials',
        socials: [
          { platform: 'github', url: 'g' },
          { platform: 'twitter', url: 't' },
        ],
      },
    });
    const id = created.body.data.documentId;
    const before = (await t.request('GET', `/api/authors/${id}?populate[0]=socials`)).body.data.socials;
    const res = await t.request('PUT', `/api/authors/${id}`, {
      data: {
        socials: [
          { id: before[1].id, platform: 'twitter', url: 't2' },
          { platform: 'mastodon', url: 'm' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const after = (await t.request('GET', `/api/authors/${id}?populate[0]=socials`)).body.data.socials;
    expect(after.map((s: { url: string }) => s.url)).toEqual(['t2', 'm']);
    expect(after[0].id).toBe(before[1].id);
    expect(after[0].documentId).toBe(before[1].documentId);
    expect(after[1].id).not.toBe(before[0].id);
    const cleared = await t.request('PUT', `/api/authors/${id}`, { data: { socials: null, address: null } });
    expect(cleared.status).toBe(200);
    const empty = (await t.request('GET', `/api/authors/${id}?populate=*`)).body.data;
    expect(empty.socials).toEqual([]);
    expect(empty.address).toBeNull();
  });

  it('enforces min/max on repeatable components and required components', async () => {
    const appDir = await writeApp({
      contentTypes: {
        box: {
          kind: 'collectionType',
          collectionName: 'boxes',
          info: { singularName: 'box', pluralName: 'boxes' },
          attributes: {
            items: { type: 'component', component: 'parts.item', repeatable: true, min: 2, max: 3 },
            lid: { type: 'component', component: 'parts.item', required: true },
          },
        },
      },
      components: {
        'parts.item': {
          collectionName: 'components_parts_items',
          info: { displayName: 'Item' },
          attributes: { label: { type: 'string' } },
        },
      },
    });
    const other = await startApp({ appDir });
    try {
      // Strapi 5.54: `min` binds a list that is not empty (or a required one), `max` any list
      const tooFew = await other.request('POST', '/api/boxes', {
        data: { items: [{ label: 'a' }], lid: { label: 'l' } },
      });
      expect(tooFew.status).toBe(400);
      expect(tooFew.body.error.details.errors[0]).toMatchObject({
        path: ['items'],
        message: 'items field must have at least 2 items',
      });
      const tooMany = await other.request('POST', '/api/boxes', {
        data: { items: [{}, {}, {}, {}], lid: { label: 'l' } },
      });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.details.errors[0].message).toBe('items field must have less than or equal to 3 items');
      const noLid = await other.request('POST', '/api/boxes', { data: { items: [{ label: 'a' }, { label: 'b' }] } });
      expect(noLid.status).toBe(400);
      expect(noLid.body.error.details.errors[0].path).toEqual(['lid']);
      const empty = await other.request('POST', '/api/boxes', { data: { items: [], lid: { label: 'l' } } });
      expect(empty.status).toBe(201);
      const ok = await other.request('POST', '/api/boxes', {
        data: { items: [{ label: 'a' }, { label: 'b' }], lid: { label: 'l' } },
      });
      expect(ok.status).toBe(201);
    } finally {
      await other.close();
    }
  });
});

describe('dynamic zones', () => {
  const blocks = () => [
    { __component: 'shared.rich-text', body: '## Intro' },
    { __component: 'shared.quote', title: 'Q', body: 'quoted', person: author },
    { __component: 'shared.rich-text', body: 'Outro' },
  ];

  it('stores an ordered list of allowed components, each with __component, id and documentId', async () => {
    const res = await t.request('POST', '/api/articles', { data: { title: 'Zones', blocks: blocks() } });
    expect(res.status).toBe(201);
    const read = await t.request('GET', `/api/articles/${res.body.data.documentId}?populate[0]=blocks`);
    const got = read.body.data.blocks;
    expect(got.map((b: { __component: string }) => b.__component)).toEqual([
      'shared.rich-text',
      'shared.quote',
      'shared.rich-text',
    ]);
    expect(Object.keys(got[0]).slice(0, 3)).toEqual(['__component', 'id', 'documentId']);
    expect(got[1]).toMatchObject({ title: 'Q', body: 'quoted' });
    expect(got[1]).not.toHaveProperty('person'); // relations inside are populated only when asked
    for (const b of got as Array<{ id: number }>) expect(Number.isInteger(b.id)).toBe(true);
  });

  it('populates inside dynamic zone components with `on` and drops unlisted components', async () => {
    const res = await t.request('POST', '/api/articles', { data: { title: 'On', blocks: blocks() } });
    const q = 'populate[blocks][on][shared.quote][populate][0]=person';
    const read = await t.request('GET', `/api/articles/${res.body.data.documentId}?${q}`);
    expect(read.status).toBe(200);
    expect(read.body.data.blocks).toHaveLength(1);
    expect(read.body.data.blocks[0].person).toMatchObject({ documentId: author, name: 'Quoted' });
    const shared = await t.request('GET', `/api/articles/${res.body.data.documentId}?populate[blocks][populate]=*`);
    expect(shared.body.data.blocks).toHaveLength(3);
    expect(shared.body.data.blocks[1].person.documentId).toBe(author);
  });

  it('rejects components that are not allowed in the zone, or missing __component', async () => {
    const bad = await t.request('POST', '/api/articles', {
      data: { title: 'x', blocks: [{ __component: 'shared.seo', metaTitle: 'no' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors[0].path).toEqual(['blocks', '0', '__component']);
    const missing = await t.request('POST', '/api/articles', { data: { title: 'x', blocks: [{ body: 'no type' }] } });
    expect(missing.status).toBe(400);
    const notArray = await t.request('POST', '/api/articles', {
      data: { title: 'x', blocks: { __component: 'shared.rich-text' } },
    });
    expect(notArray.status).toBe(400);
  });

  it('validates each item against its own component schema', async () => {
    const res = await t.request('POST', '/api/articles', {
      data: { title: 'x', blocks: [{ __component: 'shared.quote', title: 42 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors[0].path).toEqual(['blocks', '0', 'title']);
  });
});
