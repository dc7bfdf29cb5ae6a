/**
 * The response cache: answers to reads kept in memory as the bytes sent, keyed by the request and
 * the caller's permission set, and served only while every content type the read depended on is
 * at the generation it had when the read started (generations.ts, database.ts). A route opts in
 * with `config.cache`; its handler then names what the read depended on (`noteRead`), or nothing,
 * and the answer is not kept. See DESIGN.md, "Response cache".
 */
import { createHash } from 'node:crypto';
import type { RequestState, RouteMiddleware } from '../http/server.ts';
import { bodyBytes } from '../http/body-bytes.ts';
import type { Registry } from '../content-types/registry.ts';
import { readDependencies, type ReadShape } from './dependencies.ts';
import { anyDocumentKey, documentKey } from './document-keys.ts';
import { createByteLru } from './lru.ts';
import { type GenerationRecord, type Generations, isHot } from './generations.ts';

export interface ResponseCacheOptions {
  maxBytes: number;
}

interface Entry {
  body: Buffer;
  type: string;
  etag: string;
  records: GenerationRecord[];
  generations: number[];
  /** answered from memory at least once */
  served: boolean;
}

/** A read under way that may be kept: when it started, and what it depended on so far. */
interface PendingRead {
  startedAt: number;
  deps: Set<string> | null | undefined;
}

const STATE_KEY = 'responseCache';
/** an answer over this share of the budget is not kept: it would push out many small ones */
const ENTRY_SHARE = 8;
/** bookkeeping per entry beyond its body and key (objects, arrays, the map's slot) */
const ENTRY_OVERHEAD = 256;
const MAX_KEY_CHARS = 32 * 1024;
/**
 * Requests whose last kept answer went stale before it was served, remembered in an LRU of this
 * many bytes (a key's UTF-16 bytes each). Keeping an answer costs its hash (the ETag) and a place
 * in the LRU; one whose dependencies change faster than it is asked for is that cost for nothing
 * (under the mixed workload every list of articles went stale this way: the writes bumped their
 * type sixty times a second, and the cache-on server served 4% fewer requests than the cache-off
 * one). Such a request's next answers are not kept while a key it depends on is hot
 * (generations.ts), and are again once none is. Not keeping is always safe.
 */
const CHURN_BYTES = 2 * 1024 * 1024;

/**
 * What the read of a cacheable route depended on (content-type uids); null: something it could
 * not tell (the answer is not kept). Free when the request is not being cached.
 */
export function noteRead(state: RequestState, deps: Iterable<string> | null): void {
  const pending = state[STATE_KEY] as PendingRead | undefined;
  if (!pending || pending.deps === null) return;
  if (deps === null) {
    pending.deps = null;
    return;
  }
  pending.deps ??= new Set();
  for (const d of deps) pending.deps.add(d);
}

/**
 * `noteRead` of what a read of `uid` shaped by `shape` (a parsed query, or a GraphQL plan's parts)
 * depends on (`readDependencies`), worked out only when the request is being cached.
 */
export function noteQueryRead(state: RequestState, registry: Registry, uid: string, shape: ReadShape): void {
  const pending = state[STATE_KEY] as PendingRead | undefined;
  if (!pending || pending.deps === null) return;
  noteRead(state, readDependencies(registry, uid, shape));
}

/**
 * `noteRead` of a read of document `documentId` of `uid` (document-keys.ts): its document's key and
 * the type's "any document" key stand for the type, with the types its populate and filters reach.
 * What else could change the answer without writing this document is a write of rows of another
 * document: one taking a target this document held through an exclusive relation touches this
 * document's key, and a write through an inverse side touches the owners' type, which a read
 * showing such a relation reaches (relations.ts: `touch`); a deletion that empties a relation
 * bumps the deleted document's type, which a read showing that relation reaches too.
 */
export function noteDocumentRead(
  state: RequestState,
  registry: Registry,
  uid: string,
  documentId: string,
  shape: ReadShape,
): void {
  const pending = state[STATE_KEY] as PendingRead | undefined;
  if (!pending || pending.deps === null) return;
  const deps = readDependencies(registry, uid, shape, false);
  if (deps === null) noteRead(state, null);
  else noteRead(state, [...deps, documentKey(uid, documentId), anyDocumentKey(uid)]);
}

/** Whether an If-None-Match header names `etag` (weak comparison, as RFC 9110 wants for it). */
function matches(header: string, etag: string): boolean {
  if (header === '') return false;
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === etag) return true;
  }
  return false;
}

export interface ResponseCache {
  /** the route middleware: after authentication, around each route that opts in */
  readonly middleware: RouteMiddleware;
  /** forget everything (the listener reconnected: notifications may have been missed) */
  clear(): void;
}

/** A response cache over `generations`, bounded to `maxBytes`. */
export function createResponseCache(generations: Generations, options: ResponseCacheOptions): ResponseCache {
  const lru = createByteLru<Entry>(options.maxBytes, Math.floor(options.maxBytes / ENTRY_SHARE));
  const churned = createByteLru<true>(CHURN_BYTES);

  const fresh = (e: Entry): boolean => {
    for (let i = 0; i < e.records.length; i++) if (e.records[i].generation !== e.generations[i]) return false;
    return true;
  };

  /** The key: the caller's permission set, the request, and the headers that change its answer. */
  function keyOf(ctx: Parameters<RouteMiddleware>[0]): string | null {
    const scope = ctx.state.auth?.cacheScope;
    if (!scope) return null;
    const format = ctx.get('strapi-response-format');
    let key = `${scope.key}\n${ctx.method} ${ctx.url}\n${format}`;
    if (ctx.method === 'POST') {
      if (!ctx.request.is('application/json')) return null;
      key += `\n${JSON.stringify(ctx.request.body)}`;
    } else if (ctx.method !== 'GET' || ctx.request.length || ctx.get('transfer-encoding')) {
      // HEAD, or a GET with a body: not what the key describes
      return null;
    }
    return key.length > MAX_KEY_CHARS ? null : key;
  }

  function store(ctx: Parameters<RouteMiddleware>[0], key: string, pending: PendingRead): boolean {
    const deps = pending.deps;
    const scope = ctx.state.auth?.cacheScope;
    if (!deps || !scope || ctx.status !== 200 || ctx.response.get('Set-Cookie')) return false;
    const keys = [...deps, ...scope.deps];
    if (!generations.keepable(pending.startedAt, keys)) return false;
    const records = keys.map((d) => generations.record(d));
    if (churned.get(key)) {
      const now = performance.now();
      if (records.some((r) => isHot(r, now))) return false;
      churned.delete(key);
    }
    const body = bodyBytes(ctx.body);
    if (!body) return false;
    const type = ctx.response.get('Content-Type') || 'application/json; charset=utf-8';
    const gens = records.map((r) => r.generation);
    const etag = `"${createHash('sha1')
      .update(key)
      .update(`\0${gens.join(',')}\0`)
      .update(body)
      .digest('base64url')}"`;
    const entry: Entry = { body, type, etag, records, generations: gens, served: false };
    const size = body.length + key.length * 2 + etag.length + records.length * 16 + ENTRY_OVERHEAD;
    if (!lru.set(key, entry, size)) return false;
    ctx.set('ETag', etag);
    ctx.set('Content-Type', type);
    ctx.body = body;
    if (matches(ctx.get('if-none-match'), etag)) {
      ctx.status = 304;
      ctx.body = null;
    }
    return true;
  }

  const middleware: RouteMiddleware = async (ctx, route, next) => {
    if (route.config?.cache !== true) return next();
    // not listening (yet, or any more): bumps of other instances may be missed, so nothing is served or kept
    const key = generations.live ? keyOf(ctx) : null;
    if (key === null) {
      ctx.set('X-Cache', 'bypass');
      return next();
    }
    // `Cache-Control: no-cache` is not a reason to skip it: an entry is served only while it is what
    // the database holds (the server is the origin such a request wants to hear from)
    const hit = lru.get(key);
    if (hit && !fresh(hit)) {
      if (!hit.served) churned.set(key, true, key.length * 2);
      lru.delete(key);
    } else if (hit) {
      hit.served = true;
      ctx.set('X-Cache', 'hit');
      ctx.set('ETag', hit.etag);
      if (matches(ctx.get('if-none-match'), hit.etag)) {
        ctx.status = 304;
        return;
      }
      ctx.set('Content-Type', hit.type);
      ctx.body = hit.body;
      return;
    }
    const pending: PendingRead = { startedAt: generations.seq, deps: undefined };
    ctx.state[STATE_KEY] = pending;
    let kept = false;
    try {
      await next();
      kept = store(ctx, key, pending);
    } finally {
      ctx.set('X-Cache', kept ? 'miss' : 'bypass');
    }
  };

  return {
    middleware,
    clear: () => {
      lru.clear();
      churned.clear();
    },
  };
}
