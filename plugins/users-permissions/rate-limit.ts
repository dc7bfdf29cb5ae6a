import { performance } from 'node:perf_hooks';
import { rateLimited, type RequestContext } from '../../core/index.ts';
import type { UsersPermissionsConfig } from './config.ts';

export interface RateLimiter {
  /**
   * Count this request in the window of `who` on `route` from the client's address; past
   * `max` → 429 RateLimitError with Retry-After.
   */
  enforce(ctx: RequestContext, route: string, who: string): void;
  /** count this request as `enforce` does; false past `max` instead of throwing */
  admits(ctx: RequestContext, route: string, who: string): boolean;
  /** count one request for `key`: 0 while within the limit, else the seconds until its window ends */
  hit(key: string): number;
  /** how many windows are held */
  size(): number;
}

// an identifier longer than any real email only needs to be told apart from other long ones
const MAX_IDENTIFIER_CHARS = 320;

/**
 * The `who` of a window for the value of the one body field a route checks (`identifier`
 * for a login, `email` elsewhere), never of any other field: a key read from a field the
 * route ignores would let a client open a fresh window per request by varying it. Case and
 * surrounding spaces are dropped because the lookup ignores case (and a spaced variant
 * names no account). A value that is not a string (or none) shares `noIdentifier`.
 */
export function identifierOf(value: unknown): string {
  if (typeof value !== 'string') return 'noIdentifier';
  const folded = value.trim().toLowerCase().slice(0, MAX_IDENTIFIER_CHARS);
  return folded === '' ? 'noIdentifier' : folded;
}

/**
 * The `who` of a window for the account a lookup found. Counted besides the identifier's
 * window: spellings the database matches to the same user (its case folding is not
 * JavaScript's, e.g. for `İ`) then still share one window per account.
 */
export const accountOf = (id: unknown): string => `user#${String(id)}`;

/**
 * Strapi's key, `<who>:<route>:<ip>`. Limiting per identifier *and* address slows guessing
 * one account's password without letting one client lock everyone else out of theirs. The
 * route is named by its action, not by the request's path, which may be spelled many ways.
 */
export const rateLimitKey = (ctx: RequestContext, route: string, who: string): string => `${who}:${route}:${ctx.ip}`;

/**
 * A fixed-window counter per key, held by one app instance (several instances each count
 * their own share: use a shared store in front of them for a global limit). Every window
 * lasts `interval` and the clock is monotonic, so the Map's insertion order is expiry order:
 * each hit drops the expired windows from the front. `maxKeys` bounds memory against a flood
 * of distinct identifiers within one interval by forgetting the oldest window.
 */
export function createRateLimiter(
  config: UsersPermissionsConfig['ratelimit'],
  options: { now?: () => number; maxKeys?: number } = {},
): RateLimiter {
  const now = options.now ?? (() => performance.now());
  const maxKeys = options.maxKeys ?? 100_000;
  const windows = new Map<string, { count: number; endsAt: number }>();

  function prune(t: number): void {
    for (const [key, w] of windows) {
      if (w.endsAt > t) break;
      windows.delete(key);
    }
  }

  function hit(key: string): number {
    const t = now();
    prune(t);
    let w = windows.get(key);
    if (!w) {
      if (windows.size >= maxKeys) windows.delete(windows.keys().next().value as string);
      w = { count: 0, endsAt: t + config.interval };
      windows.set(key, w);
    }
    w.count += 1;
    return w.count > config.max ? Math.max(1, Math.ceil((w.endsAt - t) / 1000)) : 0;
  }

  return {
    hit,
    size: () => windows.size,
    enforce(ctx, route, who) {
      if (!config.enabled) return;
      const wait = hit(rateLimitKey(ctx, route, who));
      if (wait > 0) {
        ctx.set('Retry-After', String(wait));
        throw rateLimited();
      }
    },
    admits: (ctx, route, who) => !config.enabled || hit(rateLimitKey(ctx, route, who)) === 0,
  };
}
