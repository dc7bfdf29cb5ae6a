import { performance } from 'node:perf_hooks';
import { rateLimited } from '../../core/errors.ts';
import { isPlainObject } from '../../core/config/merge.ts';
import type { RequestContext } from '../../core/http/server.ts';
import type { UsersPermissionsConfig } from './config.ts';

export interface RateLimiter {
  /** count this request; past `max` in its window → 429 RateLimitError with Retry-After */
  enforce(ctx: RequestContext): void;
  /** count one request for `key`: 0 while within the limit, else the seconds until its window ends */
  hit(key: string): number;
  /** how many windows are held */
  size(): number;
}

// an identifier longer than any real email only needs to be told apart from other long ones
const MAX_IDENTIFIER_CHARS = 320;

/**
 * Strapi's key: `<lowercased email or identifier, or noIdentifier>:<path>:<ip>`. Limiting
 * per identifier *and* address slows guessing one account's password without letting one
 * client lock everyone else out of theirs.
 */
export function rateLimitKey(ctx: RequestContext): string {
  const body: Record<string, unknown> = isPlainObject(ctx.request.body) ? ctx.request.body : {};
  const who = [body.email, body.identifier].find((v): v is string => typeof v === 'string' && v !== '');
  const id = who === undefined ? 'noIdentifier' : who.toLowerCase().slice(0, MAX_IDENTIFIER_CHARS);
  return `${id}:${ctx.path.toLowerCase().replace(/\/+$/, '')}:${ctx.ip}`;
}

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
    enforce(ctx) {
      if (!config.enabled) return;
      const wait = hit(rateLimitKey(ctx));
      if (wait > 0) {
        ctx.set('Retry-After', String(wait));
        throw rateLimited();
      }
    },
  };
}
