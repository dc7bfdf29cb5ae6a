import type Koa from 'koa';
import type { ProxyConfig } from '../config/schemas.ts';

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

/**
 * `server.proxy` as config/server validated it (schemas.ts: false, true, a hop count 0 to 32, or
 * Strapi 5's `{ koa, maxIpsCount, ipHeader }`), as settings. `true` (and `koa: true` without
 * `maxIpsCount`) means one proxy, not Koa's "trust the whole header": its leftmost entries are
 * whatever the client sent, and trusting them let a client pick its own address (and
 * rate-limit window).
 */
export function readProxyConfig(value: ProxyConfig | undefined): ProxySettings {
  if (value === undefined || value === null || value === false) return { hops: 0, ipHeader: DEFAULT_IP_HEADER };
  if (value === true) return { hops: 1, ipHeader: DEFAULT_IP_HEADER };
  if (typeof value === 'number') return { hops: value, ipHeader: DEFAULT_IP_HEADER };
  // Strapi 5 also keeps outgoing-request proxies (global, fetch, http, https) here: not ours to read
  const hops = value.koa !== true ? 0 : (value.maxIpsCount ?? 1);
  return { hops, ipHeader: value.ipHeader ?? DEFAULT_IP_HEADER };
}

/** Set Koa up so `ctx.ip` is the client's address as the trusted proxies saw it. */
export function trustProxy(koa: Koa, settings: ProxySettings): void {
  koa.proxy = settings.hops > 0;
  koa.maxIpsCount = settings.hops;
  koa.proxyIpHeader = settings.ipHeader;
}
