/**
 * Upload's GraphQL operations over the multipart request spec (`operations`, `map`, file parts):
 * the upload plugin's service (formats, size limit, linking with `<ref>.update`), and Apollo's
 * CSRF rule (a multipart POST needs a preflight-forcing header).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { copyApp } from '../../testing.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let appDir: string;
let png: Buffer;

const onDisk = async (): Promise<string[]> => {
  const dir = path.join(appDir, 'public/uploads');
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
};
const fileRows = async (): Promise<number> => Number((await t.sql('files').count({ n: '*' }).first())!.n);

interface Multipart {
  query: string;
  variables?: Record<string, unknown>;
  map?: string;
  files?: Array<[key: string, data: Buffer, name: string]>;
  headers?: Record<string, string>;
  token?: string;
}

async function multipart(m: Multipart): Promise<{ status: number; body: any }> {
  const fd = new FormData();
  fd.append('operations', JSON.stringify({ query: m.query, variables: m.variables ?? {} }));
  fd.append('map', m.map ?? JSON.stringify(Object.fromEntries((m.files ?? []).map(([k], i) => [k, [paths[i]]]))));
  for (const [key, data, name] of m.files ?? []) fd.append(key, new Blob([new Uint8Array(data)]), name);
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    body: fd,
    headers: { authorization: `Bearer ${m.token ?? t.token}`, 'apollo-require-preflight': 'true', ...m.headers },
  });
  return { status: res.status, body: await res.json() };
}
let paths: string[] = [];

const FILE = 'data { id attributes { name alternativeText mime width height formats url } }';
const UPLOAD = `mutation($file: Upload!, $ref: String, $refId: ID, $field: String) {
  upload(file: $file, ref: $ref, refId: $refId, field: $field, info: { alternativeText: "alt" }) { ${FILE} }
}`;

async function tokenFor(permissions: string[]): Promise<string> {
  const name = `gql-up-${Math.random()}`;
  const up = t.app.plugin(usersPermissionsPlugin);
  return (await up.tokens.create({ name, type: 'custom', permissions })).accessKey;
}

beforeAll(async () => {
  appDir = await copyApp(BLOG);
  t = await startApp({ appDir, config: { plugins: { upload: { config: { sizeLimit: 1024 * 1024 } } } } });
  const raw = Buffer.alloc(600 * 400 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
  png = await sharp(raw, { raw: { width: 600, height: 400, channels: 3 } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await t?.close();
});

describe('upload over GraphQL', () => {
  it('uploads a PNG: stored, formats made, the entity returned', async () => {
    paths = ['variables.file'];
    const res = await multipart({ query: UPLOAD, files: [['0', png, 'noise.png']] });
    expect(res.body.errors).toBeUndefined();
    const file = res.body.data.upload.data;
    expect(file.attributes).toMatchObject({ name: 'noise.png', width: 600, height: 400 });
    expect(Object.keys(file.attributes.formats).sort()).toEqual(['small', 'thumbnail']);
    expect(await onDisk()).toContain(path.basename(file.attributes.url));
    expect(file.attributes.alternativeText).toBe('alt');
    expect(
      await t
        .sql('files')
        .where({ id: Number(file.id) })
        .first(),
    ).toBeDefined();
  });

  it('uploads several files, and links them to an article only with its update permission', async () => {
    const article = await t.app.documents('api::article.article').create({ data: { title: 'Pics' } });
    const q = `mutation($files: [Upload]!, $refId: ID) {
      multipleUpload(files: $files, ref: "api::article.article", refId: $refId, field: "gallery") { ${FILE} }
    }`;
    paths = ['variables.files.0', 'variables.files.1'];
    const files: Multipart['files'] = [
      ['0', png, 'a.png'],
      ['1', png, 'b.png'],
    ];
    const variables = { files: [null, null], refId: article.documentId };
    const denied = await multipart({
      query: q,
      variables,
      files,
      token: await tokenFor(['plugin::upload.content-api.upload']),
    });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const res = await multipart({ query: q, variables, files });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.multipleUpload.map((r: any) => r.data.attributes.name)).toEqual(['a.png', 'b.png']);
    const read = await t.request('GET', `/api/articles/${article.documentId}?populate[0]=gallery&status=draft`);
    expect(read.body.data.gallery.map((f: any) => f.name).sort()).toEqual(['a.png', 'b.png']);
  });

  it('updates a file info and removes a file (gone from disk and rows)', async () => {
    paths = ['variables.file'];
    const up = await multipart({ query: UPLOAD, files: [['0', png, 'gone.png']] });
    const { id, attributes } = up.body.data.upload.data;
    const gql = (query: string) => t.request('POST', '/graphql', { query }, { authorization: `Bearer ${t.token}` });
    const upd = await gql(`mutation { updateFileInfo(id: "${id}", info: { caption: "c", name: "renamed.png" }) {
      data { id attributes { name caption } } } }`);
    expect(upd.body).toEqual({
      data: { updateFileInfo: { data: { id, attributes: { name: 'renamed.png', caption: 'c' } } } },
    });
    const rows = await fileRows();
    const del = await gql(`mutation { removeFile(id: "${id}") { data { id attributes { name } } } }`);
    expect(del.body).toEqual({ data: { removeFile: { data: { id, attributes: { name: 'renamed.png' } } } } });
    expect(await fileRows()).toBe(rows - 1);
    expect(await onDisk()).not.toContain(path.basename(attributes.url));
  });

  it('refuses a multipart POST without a preflight-forcing header (CSRF): nothing stored', async () => {
    paths = ['variables.file'];
    const rows = await fileRows();
    const fd = new FormData();
    fd.append('operations', JSON.stringify({ query: UPLOAD, variables: { file: null } }));
    fd.append('map', JSON.stringify({ 0: ['variables.file'] }));
    fd.append('0', new Blob([new Uint8Array(png)]), 'csrf.png');
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      body: fd,
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toContain('Cross-Site Request Forgery');
    expect(await fileRows()).toBe(rows);
  });

  it('answers an oversize upload 413 and a bad map 400, never 500', async () => {
    paths = ['variables.file'];
    const huge = Buffer.alloc(2 * 1024 * 1024, 1);
    const big = await multipart({ query: UPLOAD, files: [['0', huge, 'huge.png']] });
    expect(big.status).toBe(413);
    expect(big.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const bad = await multipart({ query: UPLOAD, map: '{not json', files: [['0', png, 'x.png']] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toContain("'map'");
  });

  it('refuses an Upload variable sent as JSON', async () => {
    const res = await t.request(
      'POST',
      '/graphql',
      { query: UPLOAD, variables: { file: { buffer: 'x' } } },
      { authorization: `Bearer ${t.token}` },
    );
    expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
