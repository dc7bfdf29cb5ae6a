import type Koa from 'koa';
import { configurationError } from '../errors.ts';
import { isPlainObject } from '../config/merge.ts';

/** Which reverse proxies the app trusts to say who the client is. */
export interface ProxySettings {
  /**
   * How many proxies stand in front of the app, each appending the address it got the
   * request from to `ipHeader`: the client is the `hops`-th address from the right. 0: no
   * proxy, the socket's peer is the client and forwarded headers are ignored.
   */
  hops: number;
  /** the header the proxies append to (Koa's `proxyIpHeader`) */
  ipHeader: string;
}

const DEFAULT_IP_HEADER = 'X-Forwarded-For';

const invalid = (value: unknown) =>
  configurationError(
    'server.proxy must be false, true (one proxy), the number of proxies in front of the app (0 to 32), ' +
      `or { koa: boolean, maxIpsCount?: number (1 to 32), ipHeader?: string }; got ${JSON.stringify(value)}`,
  );

const hopCount = (n: unknown, value: unknown): number => {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 32) throw invalid(value);
  return n;
};

/**
 * `server.proxy`: false (the default), a hop count, `true`, or Strapi 5's
 * `{ koa, maxIpsCount, ipHeader }`. `true` (and `koa: true` without `maxIpsCount`) means one
 * proxy, not Koa's "trust the whole header": its leftmost entries are whatever the client
 * sent, and trusting them let a client pick its own address (and rate-limit window).
 */
export function readProxyConfig(value: unknown): ProxySettings {
  if (value === undefined || value === null || value === false) return { hops: 0, ipHeader: DEFAULT_IP_HEADER };
  if (value === true) return { hops: 1, ipHeader: DEFAULT_IP_HEADER };
  if (typeof value === 'number') return { hops: hopCount(value, value), ipHeader: DEFAULT_IP_HEADER };
  if (!isPlainObject(value)) throw invalid(value);
  // Strapi 5 also keeps outgoing-request proxies (global, fetch, http, https) here: not ours to read
  const { koa, maxIpsCount, ipHeader } = value;
  if (koa !== undefined && typeof koa !== 'boolean') throw invalid(value);
  const headerName = typeof ipHeader === 'string' && /^[A-Za-z0-9-]{1,64}$/.test(ipHeader);
  if (ipHeader !== undefined && !headerName) throw invalid(value);
  const hops = koa !== true ? 0 : maxIpsCount === undefined ? 1 : hopCount(maxIpsCount, value);
  if (koa === true && hops === 0) throw invalid(value);
  return { hops, ipHeader: ipHeader ?? DEFAULT_IP_HEADER };
}

/** Set Koa up so `ctx.ip` is the client's address as the trusted proxies saw it. */
export function trustProxy(koa: Koa, settings: ProxySettings): void {
  koa.proxy = settings.hops > 0;
  koa.maxIpsCount = settings.hops;
  koa.proxyIpHeader = settings.ipHeader;
}
