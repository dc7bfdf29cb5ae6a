import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { pino } from 'pino';
import type { TestApp } from '../helpers/app.ts';
import { startApp } from '../helpers/app.ts';
import { ConfigurationError, definePlugin } from '../../index.ts';
import type { DocumentApi, DocumentMiddleware, UpdateParams } from '../../core/documents/types.ts';
import { usersPermissionsPlugin } from '../../plugins/users-permissions/index.ts';
import { ROLE_UID } from '../../plugins/users-permissions/schemas.ts';

const ARTICLE = 'api::article.article';
const TAG = 'api::tag.tag';
const anon = { authorization: '' };

let t: TestApp;
/** what the probe plugin's middleware does in the current test (nothing when unset) */
let current: DocumentMiddleware | undefined;
/** every line the app logged at error level */
const errors: Array<{ msg: string; err?: { message: string } }> = [];

// a plugin's middleware, innermost (after draft & publish, users-permissions and i18n), set per test
const probe = definePlugin({
  name: 'probe',
  register(app) {
    app.documents.use((ctx, next) => (current ? current(ctx, next) : next()));
  },
});

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      errors.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  t = await startApp({ plugins: [probe], logger: pino({ level: 'error' }, sink) });
});
afterEach(() => {
  current = undefined;
  errors.length = 0;
});
afterAll(async () => {
  await t?.close();
});

const tagRows = async (name: string): Promise<number> =>
  Number((await t.sql('tags').whereRaw(`data->>'name' = ?`, [name]).count({ n: '*' }).first())!.n);

describe('document middleware and the caller', () => {
  it("works on the call's own params: no rewrite (nested, draft & publish's, i18n's) reaches the caller", async () => {
    current = async (ctx, next) => {
      if (ctx.action === 'create' && ctx.uid === ARTICLE) {
        ctx.params.data.title = 'rewritten';
        (ctx.params.data.seo as { metaTitle: string }).metaTitle = 'rewritten too';
        ctx.params.fields?.push('views');
      }
      return next();
    };
    const params = {
      data: { title: 'as sent', seo: { metaTitle: 'meta as sent', metaDescription: 'a description long enough' } },
      status: 'published' as const,
      fields: ['title'],
      populate: { seo: {} },
    };
    const before = structuredClone(params);
    const doc = await t.app.documents(ARTICLE).create(params);
    // the middleware's rewrite reached the write…
    expect(doc?.title).toBe('rewritten');
    expect(doc?.publishedAt).not.toBeNull();
    // …and nothing of it (nor draft & publish's status, populate and fields, nor i18n's locale) reached the caller
    expect(params).toEqual(before);
    expect(params).not.toHaveProperty('locale');
  });

  it("gives a middleware that narrows on ctx.action that action's params", async () => {
    const seen: string[] = [];
    current = async (ctx, next) => {
      if (ctx.action === 'update') {
        expectTypeOf(ctx.params).toEqualTypeOf<UpdateParams>();
        seen.push(`${ctx.params.documentId}: ${String(ctx.params.data.name)}`);
      }
      return next();
    };
    const tag = await t.app.documents(TAG).create({ data: { name: 'narrowed' } });
    await t.app.documents(TAG).update({ documentId: String(tag.documentId), data: { name: 'narrowed again' } });
    expect(seen).toEqual([`${tag.documentId}: narrowed again`]);
  });

  it('refuses a second next() from one middleware, and the write it was part of is rolled back', async () => {
    let runs = 0;
    current = async (ctx, next) => {
      if (ctx.action !== 'create' || ctx.uid !== TAG) return next();
      runs++;
      await next();
      return next();
    };
    const create = t.app.documents(TAG).create({ data: { name: 'twice' } });
    await expect(create).rejects.toThrow('next() called multiple times');
    expect(runs).toBe(1);
    expect(await tagRows('twice')).toBe(0);
    // over HTTP it is an internal error, and nothing is written either
    const res = await t.request('POST', '/api/tags', { data: { name: 'twice' } });
    expect([res.status, res.body.error.name]).toEqual([500, 'InternalServerError']);
    expect(await tagRows('twice')).toBe(0);
  });
});

describe('after-commit hooks', () => {
  it('run once the write is committed (its rows seen by other connections), before it is answered', async () => {
    const events: string[] = [];
    current = async (ctx, next) => {
      const result = await next();
      if (ctx.action === 'create' && ctx.uid === TAG) {
        await ctx.afterCommit(async () => {
          events.push(`hook sees ${await tagRows('committed first')} row`);
        });
        events.push('queued');
      }
      return result;
    };
    await t.app.documents(TAG).create({ data: { name: 'committed first' } });
    events.push('answered');
    expect(events).toEqual(['queued', 'hook sees 1 row', 'answered']);
  });

  it('wait for the outermost transaction: a call in transaction() queues its hook until the body commits', async () => {
    const events: string[] = [];
    current = async (ctx, next) => {
      const result = await next();
      if (ctx.action === 'create' && ctx.uid === TAG)
        await ctx.afterCommit(() => {
          events.push('hook');
        });
      return result;
    };
    await t.app.documents.transaction(async (documents, trx) => {
      await documents(TAG).create({ data: { name: 'in a body' } });
      await t.app.documents.afterCommit(trx, () => {
        events.push('body hook');
      });
      events.push('body goes on');
    });
    expect(events).toEqual(['body goes on', 'hook', 'body hook']);
  });

  it('never run when the transaction rolls back', async () => {
    let ran = 0;
    current = async (ctx, next) => {
      const result = await next();
      if (ctx.action === 'create' && ctx.uid === TAG)
        await ctx.afterCommit(() => {
          ran++;
        });
      return result;
    };
    const body = t.app.documents.transaction(async (documents) => {
      await documents(TAG).create({ data: { name: 'rolled back' } });
      throw new Error('changed my mind');
    });
    await expect(body).rejects.toThrow('changed my mind');
    expect([ran, await tagRows('rolled back')]).toEqual([0, 0]);
  });

  it('run only for the attempt that commits when a transaction is retried', async () => {
    const ran: number[] = [];
    let attempt = 0;
    await t.app.documents.transaction(async (_documents, trx) => {
      const mine = ++attempt;
      await t.app.documents.afterCommit(trx, () => {
        ran.push(mine);
      });
      // what PostgreSQL answers a transaction it could not serialize: rolled back, then run again
      if (mine === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
    });
    expect(ran).toEqual([2]);
  });

  it('run at once outside a transaction (a read, or the pool itself)', async () => {
    const events: string[] = [];
    current = async (ctx, next) => {
      if (ctx.action === 'findMany' && ctx.uid === TAG)
        await ctx.afterCommit(() => {
          events.push('read hook');
        });
      return next();
    };
    await t.app.documents(TAG).findMany();
    await t.app.documents.afterCommit(t.app.db, () => {
      events.push('pool hook');
    });
    expect(events).toEqual(['read hook', 'pool hook']);
  });

  it('refuse a transaction the document service did not open, since its commit is not known', async () => {
    const attempt = t.app.db.transaction((trx) => t.app.documents.afterCommit(trx, () => undefined));
    await expect(attempt).rejects.toThrow(ConfigurationError);
  });

  it('that fail are logged, and the committed write is answered as usual', async () => {
    current = async (ctx, next) => {
      const result = await next();
      if (ctx.action === 'create' && ctx.uid === TAG)
        await ctx.afterCommit(() => {
          throw new Error('hook broke');
        });
      return result;
    };
    const res = await t.request('POST', '/api/tags', { data: { name: 'hook broke' } });
    expect(res.status).toBe(201);
    expect(await tagRows('hook broke')).toBe(1);
    expect(errors.map((e) => [e.msg, e.err?.message])).toEqual([['an after-commit hook failed', 'hook broke']]);
  });
});

describe('the role cache', () => {
  const roleReads = (): number => t.queries.filter((q) => q.includes('up_roles')).length;
  const publicRole = async (): Promise<{ documentId: string; permissions: string[] }> => {
    const roles = await t.app.documents(ROLE_UID).findMany({ fields: ['type', 'permissions'], raw: true });
    const found = roles.find((r) => r.type === 'public');
    return { documentId: String(found!.documentId), permissions: found!.permissions as string[] };
  };
  const setPublic = (documents: (uid: string) => DocumentApi, documentId: string, permissions: string[]) =>
    documents(ROLE_UID).update({ documentId, data: { permissions } });

  it('applies a roles-API edit to the very next request', async () => {
    type Roles = { roles: Array<{ id: number; type: string }> };
    const listed = await t.request<Roles>('GET', '/api/users-permissions/roles');
    const roles = listed.body.roles;
    const id = roles.find((r) => r.type === 'public')!.id;
    const tree = (await t.request('GET', `/api/users-permissions/roles/${id}`)).body.role.permissions;
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);

    const revoked = structuredClone(tree);
    revoked['api::tag'].controllers.tag.find.enabled = false;
    expect((await t.request('PUT', `/api/users-permissions/roles/${id}`, { permissions: revoked })).status).toBe(200);
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(401);

    expect((await t.request('PUT', `/api/users-permissions/roles/${id}`, { permissions: tree })).status).toBe(200);
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);
  });

  it('keeps the cached grants when a role edit rolls back', async () => {
    const role = await publicRole();
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);
    const body = t.app.documents.transaction(async (documents) => {
      await setPublic(
        documents,
        role.documentId,
        role.permissions.filter((a) => a !== `${TAG}.find`),
      );
      throw new Error('rolled back');
    });
    await expect(body).rejects.toThrow('rolled back');
    t.queries.length = 0;
    // still granted, from the cache: the grants were neither dropped nor replaced by the rolled-back ones
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);
    expect(roleReads()).toBe(0);
  });

  it('drops grants cached while a role edit was uncommitted once it commits, not before', async () => {
    const role = await publicRole();
    t.app.plugin(usersPermissionsPlugin).roles.invalidate();
    try {
      await t.app.documents.transaction(async (documents) => {
        await setPublic(
          documents,
          role.documentId,
          role.permissions.filter((a) => a !== `${TAG}.find`),
        );
        // a request served meanwhile reads (and caches) the committed grants: still allowed
        t.queries.length = 0;
        expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);
        expect(roleReads()).toBeGreaterThan(0);
      });
      // the commit dropped what that request cached: the revocation applies at once
      expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(401);
    } finally {
      await setPublic(t.app.documents, role.documentId, role.permissions);
    }
    expect((await t.request('GET', '/api/tags', undefined, anon)).status).toBe(200);
  });
});
