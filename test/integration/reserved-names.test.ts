import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { FILE_UID } from '../../core/content-types/types.ts';
import { ROOT, startApp } from '../helpers/app.ts';

/**
 * Table and attribute names that are SQL reserved words (`order`, `user`, `group`, `select`,
 * `table`, `desc`, `where`, `having`, `offset`, `from`, `limit`) through every read and write
 * path: a name spliced into SQL unquoted answers 500 (`populate=*` did, on `"order"`).
 */
let t: TestApp;
let fileId: number;
const accounts: string[] = [];
let group: string;

async function ok(method: string, url: string, body?: unknown, status = 200): Promise<any> {
  const res = await t.request(method, url, body);
  expect(res.status, `${method} ${url}: ${res.text}`).toBe(status);
  return res.body;
}

const order = (select: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  select,
  desc: `about ${select}`,
  table: select.length,
  group,
  user: accounts,
  where: [
    { from: 'a', limit: 1, user: accounts[0] },
    { from: 'b', limit: 2 },
  ],
  having: [{ __component: 'parts.column', from: 'dz', limit: 3, user: accounts[1] }],
  offset: fileId,
  ...extra,
});

beforeAll(async () => {
  t = await startApp({
    appDir: path.join(ROOT, 'test/fixtures/reserved'),
    config: { plugins: { i18n: { config: { locales: ['en', 'fr'], defaultLocale: 'en' } } } },
  });
  const file = await t.app.documents(FILE_UID).create({
    data: {
      name: 'x.png',
      hash: 'x_png',
      ext: '.png',
      mime: 'image/png',
      size: 1,
      url: '/uploads/x.png',
      provider: 'local',
    },
  });
  fileId = file.id as number;
  for (const name of ['u1', 'u2'])
    accounts.push((await ok('POST', '/api/accounts', { data: { table: name, desc: 1 } }, 201)).data.documentId);
  group = (await ok('POST', '/api/groups', { data: { select: 'g' } }, 201)).data.documentId;
});

afterAll(async () => {
  await t?.close();
});

describe('reserved words as table and attribute names', () => {
  it('create, read with populate=* (one and many), fields, publish and count', async () => {
    const created = (await ok('POST', '/api/orders?status=published', { data: order('first') }, 201)).data;
    await ok('POST', '/api/orders', { data: order('second', { table: 7 }) }, 201);
    const one = (await ok('GET', `/api/orders/${created.documentId}?populate=*`)).data;
    expect(one).toMatchObject({
      select: 'first',
      desc: 'about first',
      table: 5,
      group: { select: 'g' },
      offset: { id: fileId },
    });
    expect(one.user.map((u: { table: string }) => u.table)).toEqual(['u1', 'u2']);
    expect(one.where.map((w: { from: string }) => w.from)).toEqual(['a', 'b']);
    expect(one.having).toHaveLength(1);
    const list = await ok('GET', '/api/orders?populate=*&status=draft&sort=table:desc');
    expect(list.data.map((d: { select: string }) => d.select)).toEqual(['second', 'first']);
    expect(list.meta.pagination.total).toBe(2);
    const fields = (await ok('GET', '/api/orders?fields[0]=select&fields[1]=desc&status=draft&sort=select')).data;
    expect(fields.map((d: Record<string, unknown>) => Object.keys(d).sort())).toEqual([
      ['desc', 'documentId', 'id', 'select'],
      ['desc', 'documentId', 'id', 'select'],
    ]);
  });

  it('deep populate, populate filters and sort through both sides of a relation and components', async () => {
    const groups = await ok(
      'GET',
      '/api/groups?populate[order][populate][user]=true&populate[order][populate][where][populate]=user',
    );
    expect(groups.data[0].order[0].user.map((u: { table: string }) => u.table)).toEqual(['u1', 'u2']);
    expect(groups.data[0].order[0].where[0].user.table).toBe('u1');
    const filtered = await ok(
      'GET',
      '/api/groups?populate[order][filters][select][$eq]=first&populate[order][sort]=table:desc',
    );
    expect(filtered.data[0].order.map((o: { select: string }) => o.select)).toEqual(['first']);
    // both are published: a REST create publishes unless asked for a draft
    const counted = await ok('GET', '/api/groups?populate[order][count]=true');
    expect(counted.data[0].order).toEqual({ count: 2 });
  });

  it('filters and sorts through relations, components, dynamic zones and media', async () => {
    const titles = async (q: string, sort = 'sort=select'): Promise<string[]> =>
      (await ok('GET', `/api/orders?status=draft&${sort}&${q}`)).data.map((d: { select: string }) => d.select);
    expect(await titles('filters[group][select]=g')).toEqual(['first', 'second']);
    expect(await titles('filters[user][table][$eq]=u2')).toEqual(['first', 'second']);
    expect(await titles('filters[where][user][table]=u1&filters[table]=7')).toEqual(['second']);
    expect(await titles('filters[having][from]=dz&filters[desc][$containsi]=FIRST')).toEqual(['first']);
    expect(await titles('filters[offset][name]=x.png&filters[group][order][select][$null]=true')).toEqual([]);
    expect(await titles('', 'sort[0]=group.select&sort[1]=table:desc')).toEqual(['second', 'first']);
    expect(await titles('', 'sort[0]=user.table:desc&sort[1]=where.limit')).toEqual(['first', 'second']);
    const groups = await ok('GET', '/api/groups?filters[order][select][$eq]=first&filters[order][user][table]=u1');
    expect(groups.data).toHaveLength(1);
    expect((await ok('GET', '/api/groups?filters[order][table][$gt]=100')).data).toEqual([]);
  });

  it('update, relation inputs, a unique violation, a localization and delete', async () => {
    const [first] = (await ok('GET', '/api/orders?status=draft&filters[select]=first')).data;
    const updated = (
      await ok('PUT', `/api/orders/${first.documentId}?populate=user`, {
        data: { desc: 'changed', user: { disconnect: [accounts[0]] } },
      })
    ).data;
    expect(updated.desc).toBe('changed');
    expect(updated.user.map((u: { table: string }) => u.table)).toEqual(['u2']);
    const clash = await t.request('POST', '/api/orders', { data: { select: 'first' } });
    expect(clash.status).toBe(400);
    expect(clash.body.error.details.errors[0].path).toEqual(['select']);
    // a French version: shared (non-localized) attributes are copied and kept in step
    await ok('PUT', `/api/orders/${first.documentId}?locale=fr`, { data: { select: 'premier', table: 42 } });
    const en = (await ok('GET', `/api/orders/${first.documentId}?locale=en&status=draft`)).data;
    expect(en.table).toBe(42);
    await ok('DELETE', `/api/groups/${group}`, undefined, 204);
    const orphan = (await ok('GET', `/api/orders/${first.documentId}?populate=group&status=draft`)).data;
    expect(orphan.group).toBeNull();
    await ok('DELETE', `/api/orders/${first.documentId}?locale=fr`, undefined, 204);
    await ok('DELETE', `/api/orders/${first.documentId}`, undefined, 204);
    expect((await t.request('GET', `/api/orders/${first.documentId}`)).status).toBe(404);
    const { rows } = await t.sql.raw('SELECT count(*)::int AS n FROM "order" WHERE document_id = ?', [
      first.documentId,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
