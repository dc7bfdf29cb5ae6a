import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from 'vellum/testing';

interface Article {
  documentId: string;
  title: string;
}

// this project's schemas and config, on a fresh database, listening on a free port
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const anonymous = { authorization: '' };

describe('articles', () => {
  it('are written with an API token and read by anyone', async () => {
    // `request` sends a full-access API token unless told otherwise
    const created = await t.request<{ data: Article }>('POST', '/api/articles', { data: { title: 'Hello' } });
    expect(created.status).toBe(201);

    const list = await t.request<{ data: Article[] }>('GET', '/api/articles', undefined, anonymous);
    expect(list.status).toBe(200);
    expect(list.body.data.map((a) => a.title)).toEqual(['Hello']);
  });

  it('are not written by anonymous callers, nor by users whose role does not grant it', async () => {
    const post = (headers: Record<string, string>) =>
      t.request('POST', '/api/articles', { data: { title: 'Nope' } }, headers);
    expect((await post(anonymous)).status).toBe(401);

    const jwt = await t.userJwt({ role: 'authenticated' });
    expect((await post({ authorization: `Bearer ${jwt}` })).status).toBe(403);
  });
});
