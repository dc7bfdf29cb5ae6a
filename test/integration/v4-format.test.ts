import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';

let t: TestApp;
let author: Record<string, any>;
let article: Record<string, any>;
let file: Record<string, any>;
const V4 = { 'Strapi-Response-Format': 'v4' };

beforeAll(async () => {
  t = await startApp();
  file = await t.app.documents('plugin::upload.file').create({
    data: {
      name: 'c.png',
      hash: 'c_1',
      ext: '.png',
      mime: 'image/png',
      size: 2,
      url: '/uploads/c_1.png',
      provider: 'local',
    },
  });
  author = (await t.request('POST', '/api/authors', { data: { name: 'V4 author', address: { city: 'Lyon' } } })).body
    .data;
  article = (
    await t.request('POST', '/api/articles', {
      data: {
        title: 'v4',
        views: 3,
        author: author.documentId,
        cover: file.id,
        seo: { metaTitle: 'm', keywords: [{ value: 'k' }] },
        blocks: [{ __component: 'shared.quote', title: 'q', person: author.documentId }],
      },
    })
  ).body.data;
});
afterAll(async () => {
  await t?.close();
});

describe('Strapi-Response-Format: v4', () => {
  it('wraps list entries as {id, documentId, attributes}, with the same meta', async () => {
    const flat = await t.request('GET', '/api/articles');
    const res = await t.request('GET', '/api/articles', undefined, V4);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual(flat.body.meta);
    const { id, documentId, ...attributes } = flat.body.data[0];
    expect(res.body.data[0]).toEqual({ id, documentId, attributes });
  });

  it('wraps a single document, and answers writes in the same shape', async () => {
    const res = await t.request('GET', `/api/articles/${article.documentId}`, undefined, {
      'strapi-response-format': 'V4',
    });
    expect(res.body.data).toMatchObject({
      id: article.id,
      documentId: article.documentId,
      attributes: { title: 'v4', views: 3, locale: 'en' },
    });
    expect(res.body.data.attributes).not.toHaveProperty('id');
    expect(res.body.meta).toEqual({});
    const created = await t.request('POST', '/api/tags', { data: { name: 'v4-tag' } }, V4);
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toMatchObject({ name: 'v4-tag' });
  });

  it('puts populated relations and media under data, and flattens components and dynamic zones', async () => {
    const q =
      'populate[author][populate][0]=address&populate[seo][populate]=*&populate[blocks][populate]=*' +
      '&populate[cover]=true&populate[tags]=true&populate[gallery]=true&populate[localizations]=true';
    const res = await t.request('GET', `/api/articles/${article.documentId}?${q}`, undefined, V4);
    expect(res.status).toBe(200);
    const a = res.body.data.attributes;
    expect(a.author).toEqual({
      data: {
        id: author.id,
        documentId: author.documentId,
        attributes: expect.objectContaining({ name: 'V4 author', address: expect.objectContaining({ city: 'Lyon' }) }),
      },
    });
    expect(a.author.data.attributes.address).not.toHaveProperty('documentId');
    expect(a.cover).toEqual({
      data: {
        id: file.id,
        documentId: file.documentId,
        attributes: expect.objectContaining({ name: 'c.png', url: '/uploads/c_1.png' }),
      },
    });
    expect(a.gallery).toEqual({ data: [] });
    expect(a.tags).toEqual({ data: [] });
    expect(a.localizations).toEqual({ data: [] });
    expect(a.seo).toEqual({
      id: expect.any(Number),
      metaTitle: 'm',
      metaDescription: null,
      shareImage: { data: null },
      keywords: [{ id: expect.any(Number), value: 'k' }],
    });
    expect(a.blocks).toHaveLength(1);
    expect(a.blocks[0]).toMatchObject({
      __component: 'shared.quote',
      title: 'q',
      person: { data: { documentId: author.documentId, attributes: expect.objectContaining({ name: 'V4 author' }) } },
    });
    expect(a.blocks[0]).not.toHaveProperty('documentId');
  });

  it('leaves errors and other plugins unchanged', async () => {
    const missing = await t.request('GET', '/api/articles/nope0000000000000000000000', undefined, V4);
    expect(missing.body).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} },
    });
    const locales = await t.request('GET', '/api/i18n/locales', undefined, V4);
    expect(locales.body[0]).toHaveProperty('code', 'en');
    expect(locales.body[0]).not.toHaveProperty('attributes');
  });

  it('keeps private fields out of the v4 shape too', async () => {
    await t.app
      .documents('api::article.article')
      .update({ documentId: article.documentId, data: { internalNotes: 'secret' }, status: 'published', locale: 'en' });
    const res = await t.request('GET', `/api/articles/${article.documentId}`, undefined, V4);
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(res.body.data.attributes).not.toHaveProperty('internalNotes');
  });
});
