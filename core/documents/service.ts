import type { Knex } from 'knex';
import type { Logger } from 'pino';
import compose from 'koa-compose';
import type { Registry } from '../content-types/registry.ts';
import { translateDatabaseError } from './db-errors.ts';
import { createCoreActions } from './actions.ts';
import { takeWriteLock, writeLockKey } from './locks.ts';
import { createCommitHooks, type GenerationBumps } from './after-commit.ts';
import { copyParams } from './copy-params.ts';
import { anyDocumentKey, documentKey } from '../cache/document-keys.ts';
import {
  ACTIONS,
  WRITE_ACTIONS,
  type Action,
  type DocumentApi,
  type DocumentContext,
  type DocumentMiddleware,
  type DocumentService,
  type ParamsOf,
  type ResultOf,
} from './types.ts';

export type * from './types.ts';

type Chain = (ctx: DocumentContext) => Promise<unknown>;

/**
 * The document service: the only read/write path to content, shared by REST, GraphQL and
 * plugins. Every call runs the middleware chain, then the core action. `db` is a getter: the
 * service exists (and takes middleware) before the database is connected. `log` hears of
 * after-commit hooks that failed (the write they followed is committed whatever they do).
 * `generations`: every write bumps its content type's generation in its transaction (the
 * response cache's freshness).
 */
export function createDocumentService(deps: {
  db: () => Knex;
  registry: Registry;
  log?: Logger;
  generations?: GenerationBumps;
}): DocumentService {
  const { db, registry, log } = deps;
  const middlewares: DocumentMiddleware[] = [];
  const core = createCoreActions(registry);
  const hooks = createCommitHooks((err) => log?.error({ err }, 'an after-commit hook failed'), deps.generations);
  const coreStep = (ctx: DocumentContext): Promise<unknown> =>
    (core[ctx.action] as (c: DocumentContext) => Promise<unknown>)(ctx);
  // composed once per set of middleware; koa-compose refuses a second `next()` from one middleware
  let chain: Chain | undefined;
  const chained = (): Chain => (chain ??= compose<DocumentContext>([...middlewares, coreStep]) as unknown as Chain);

  // the write locks each open transaction holds already: a nested call does not ask again
  const held = new WeakMap<Knex, Set<string>>();
  async function lock(trx: Knex, key: string): Promise<void> {
    const keys = held.get(trx) ?? new Set<string>();
    if (keys.has(key)) return;
    await takeWriteLock(trx, key);
    held.set(trx, keys.add(key));
  }

  /** Run an action; inside `conn` (a transaction already open) or, for a write, in a new one. */
  function run<A extends Action>(uid: string, action: A, params: ParamsOf[A], conn?: Knex): Promise<ResultOf[A]> {
    const contentType = registry.contentType(uid);
    const write = WRITE_ACTIONS.has(action);
    const exec = async (c: Knex): Promise<ResultOf[A]> => {
      // rows of `other` written: of document `documentId`, or of documents not named (document-keys.ts)
      const touch = async (other: string, documentId?: string): Promise<void> => {
        await hooks.touch(c, other);
        await hooks.touch(c, documentId === undefined ? anyDocumentKey(other) : documentKey(other, documentId));
      };
      // middleware rewrites params (draft & publish, i18n) on a copy of its own, made per attempt:
      // the caller's object never changes, and a retried transaction starts from what the caller sent
      const ctx = {
        uid,
        contentType,
        action,
        params: copyParams(params),
        db: c,
        documents: (other: string) => api(other, c),
        afterCommit: (fn) => hooks.add(c, fn),
        touch,
      } as DocumentContext<A>;
      // writers to one document queue up before reading anything of it
      const key = write ? writeLockKey(contentType, (params as { documentId?: string }).documentId) : null;
      if (key) await lock(c, key);
      const result = (await chained()(ctx as DocumentContext)) as ResultOf[A];
      if (write) {
        // whatever the write changed of this type (the document, its other locales and versions), and
        // of which document: reads of other documents keep their cached answers (document-keys.ts)
        const id =
          (params as { documentId?: unknown }).documentId ?? (result as { documentId?: unknown } | null)?.documentId;
        await touch(uid, typeof id === 'string' ? id : undefined);
      }
      return result;
    };
    // one transaction per write: a failure anywhere leaves nothing half-written
    const started = conn ? exec(conn) : write ? hooks.transaction(db(), (trx) => exec(trx)) : exec(db());
    return started.catch((err: unknown) => {
      throw translateDatabaseError(err, contentType);
    });
  }

  function api(uid: string, conn?: Knex): DocumentApi {
    const out = {} as Record<Action, (params?: unknown) => Promise<unknown>>;
    for (const action of ACTIONS) {
      out[action] = (params = {}) => run(uid, action, params as ParamsOf[typeof action], conn);
    }
    return out as unknown as DocumentApi;
  }

  const service = ((uid: string) => api(uid)) as DocumentService;
  service.use = (mw) => {
    middlewares.push(mw);
    chain = undefined;
  };
  service.transaction = (work) => hooks.transaction(db(), (trx) => work((uid) => api(uid, trx), trx));
  service.lock = async (trx, uid, documentId) => {
    const key = writeLockKey(registry.contentType(uid), documentId);
    if (key) await lock(trx, key);
  };
  service.afterCommit = (conn, fn) => hooks.add(conn, fn);
  return service;
}
