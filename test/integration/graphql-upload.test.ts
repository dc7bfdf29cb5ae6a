/**
 * Upload's GraphQL operations over the multipart request spec (`operations`, `map`, file parts):
 * the upload plugin's service (formats, size limit, linking with `<ref>.update`), and Apollo's
 * CSRF rule (a multipart POST needs a preflight-forcing header). In both shapes: Strapi 4's
 * upload mutations (`upload`, `multipleUpload`, `updateFileInfo`, `removeFile`, the `Upload`
 * scalar) are the entity shape's only; Strapi 5 uploads through REST, reads files with
 * `uploadFile(documentId)` and writes them with `updateUploadFile`/`deleteUploadFile`.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { copyApp } from '../../testing.ts';
import { BLOG, startApp, type TestApp } from '../helpers/app.ts';
import { SHAPES, type Shape, shapeConfig } from '../helpers/graphql-shapes.ts';

const FILE = 'data { id attributes { name alternativeText mime width height formats url } }';
const UPLOAD = `mutation($file: Upload!, $ref: String, $refId: ID, $field: String) {
  upload(file: $file, ref: $ref, refId: $refId, field: $field, info: { alternativeText: "alt" }) { ${FILE} }
}`;
/** A query each shape has, for the multipart requests refused before they run. */
const ANY_QUERY = (shape: Shape) => (shape === 'flat' ? '{ uploadFiles { documentId } }' : UPLOAD);

describe.each(SHAPES)('upload over GraphQL (%s shape)', (shape) => {
  const flat = shape === 'flat';
  let t: TestApp;
  let appDir: string;
  let png: Buffer;
  let paths: string[] = [];

  const onDisk = async (): Promise<string[]> => {
    const dir = path.join(appDir, 'public/uploads');
    return existsSync(dir) ? (await readdir(dir)).sort() : [];
  };
  const fileRows = async (): Promise<number> => Number((await t.sql('files').count({ n: '*' }).first())!.n);
  const gql = (query: string, variables?: Record<string, unknown>) =>
    t.request('POST', '/graphql', { query, variables }, { authorization: `Bearer ${t.token}` });

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

  async function tokenFor(permissions: string[]): Promise<string> {
    const name = `gql-up-${Math.random()}`;
    const up = t.app.plugin(usersPermissionsPlugin);
    return (await up.tokens.create({ name, type: 'custom', permissions })).accessKey;
  }

  /** Uploads `name` through REST (Strapi 5's only way), answering the file as REST does. */
  async function restUpload(name: string): Promise<any> {
    const fd = new FormData();
    fd.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
    const res = await fetch(`${t.url}/api/upload`, {
      method: 'POST',
      body: fd,
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as any[])[0];
  }

  beforeAll(async () => {
    appDir = await copyApp(BLOG);
    const { plugins } = shapeConfig(shape);
    t = await startApp({ appDir, config: { plugins: { ...plugins, upload: { config: { sizeLimit: 1024 * 1024 } } } } });
    const raw = Buffer.alloc(600 * 400 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 7919) % 251;
    png = await sharp(raw, { raw: { width: 600, height: 400, channels: 3 } })
      .png()
      .toBuffer();
  });
  afterAll(async () => {
    await t?.close();
  });

  if (!flat) {
    // Strapi 4's upload mutations: the entity shape's only (Strapi 5 has none of them)
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
  }

  if (flat) {
    // Strapi 5's counterparts of the cases above: REST uploads, GraphQL reads and writes the file
    it('reads a PNG uploaded through REST by its documentId: formats made', async () => {
      const uploaded = await restUpload('noise.png');
      const res = await gql(
        'query($id: ID!) { uploadFile(documentId: $id) { documentId name width height formats url } }',
        {
          id: uploaded.documentId,
        },
      );
      expect(res.body.errors).toBeUndefined();
      const file = res.body.data.uploadFile;
      expect(file).toMatchObject({ documentId: uploaded.documentId, name: 'noise.png', width: 600, height: 400 });
      expect(Object.keys(file.formats).sort()).toEqual(['small', 'thumbnail']);
      expect(await onDisk()).toContain(path.basename(file.url));
    });

    it('updates a file info and deletes a file by its row id (gone from disk and rows)', async () => {
      const { id, documentId, url } = await restUpload('gone.png');
      const upd = await gql(
        `mutation($id: ID!) { updateUploadFile(id: $id, info: { caption: "c", name: "renamed.png" }) {
          documentId name caption } }`,
        { id: String(id) },
      );
      expect(upd.body).toEqual({ data: { updateUploadFile: { documentId, name: 'renamed.png', caption: 'c' } } });
      const rows = await fileRows();
      const del = await gql('mutation($id: ID!) { deleteUploadFile(id: $id) { documentId name } }', { id: String(id) });
      expect(del.body).toEqual({ data: { deleteUploadFile: { documentId, name: 'renamed.png' } } });
      expect(await fileRows()).toBe(rows - 1);
      expect(await onDisk()).not.toContain(path.basename(url));
    });
  }

  it('refuses a multipart POST without a preflight-forcing header (CSRF): nothing stored', async () => {
    paths = ['variables.file'];
    const rows = await fileRows();
    const fd = new FormData();
    fd.append('operations', JSON.stringify({ query: ANY_QUERY(shape), variables: { file: null } }));
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
    const big = await multipart({ query: ANY_QUERY(shape), files: [['0', huge, 'huge.png']] });
    expect(big.status).toBe(413);
    expect(big.body.errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
    const bad = await multipart({ query: ANY_QUERY(shape), map: '{not json', files: [['0', png, 'x.png']] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toContain("'map'");
  });

  it('refuses an Upload variable sent as JSON (Strapi 5 has no Upload type)', async () => {
    const res = await gql(UPLOAD, { file: { buffer: 'x' } });
    expect(res.body.errors[0].extensions.code).toBe(flat ? 'GRAPHQL_VALIDATION_FAILED' : 'BAD_USER_INPUT');
    if (flat) expect(res.body.errors[0].message).toMatch(/^Unknown type "Upload"\./);
  });
});
