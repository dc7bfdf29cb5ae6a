import { describe, expect, it } from 'vitest';
import Koa from 'koa';
import { readProxyConfig, trustProxy } from '../../../../core/http/proxy.ts';
import { serverConfigSchema } from '../../../../core/config/schemas.ts';
import { parseConfig } from '../../../../core/config/validate.ts';

/** `server.proxy` as the app reads it: validated by config/server's schema, then turned into settings. */
const read = (proxy: unknown) => readProxyConfig(parseConfig(serverConfigSchema, { proxy }, { name: 'server' }).proxy);

describe('server.proxy', () => {
  it("reads false, true, a hop count and Strapi 5's { koa, maxIpsCount, ipHeader }", () => {
    const xff = 'X-Forwarded-For';
    expect(read(undefined)).toEqual({ hops: 0, ipHeader: xff });
    expect(read(false)).toEqual({ hops: 0, ipHeader: xff });
    // one proxy, not Koa's "the whole header"
    expect(read(true)).toEqual({ hops: 1, ipHeader: xff });
    expect(read(3)).toEqual({ hops: 3, ipHeader: xff });
    expect(read({ koa: true })).toEqual({ hops: 1, ipHeader: xff });
    expect(read({ koa: false, maxIpsCount: 2 })).toEqual({ hops: 0, ipHeader: xff });
    const strapi = { koa: true, maxIpsCount: 2, ipHeader: 'CF-Connecting-IP', global: 'http://egress:3128' };
    expect(read(strapi)).toEqual({ hops: 2, ipHeader: 'CF-Connecting-IP' });
  });

  it('refuses what would trust the whole header or is no proxy setting, naming server.proxy', () => {
    const wrong: unknown[] = [-1, 1.5, 33, 'true', [1], { koa: 'yes' }, { koa: true, maxIpsCount: 0 }];
    wrong.push({ koa: true, ipHeader: 'not a header' });
    for (const bad of wrong) {
      expect(() => read(bad), JSON.stringify(bad)).toThrow(/^config\/server: proxy(\.\w+)?: expected /);
    }
  });

  it('makes ctx.ip the address the outermost trusted proxy saw', () => {
    const ipOf = (hops: number, header: string): string => {
      const koa = new Koa();
      trustProxy(koa, { hops, ipHeader: 'X-Forwarded-For' });
      const req = { headers: { 'x-forwarded-for': header }, socket: { remoteAddress: '10.0.0.1' } };
      return koa.createContext(req as never, {} as never).ip;
    };
    expect(ipOf(0, '203.0.113.9, 198.51.100.1')).toBe('10.0.0.1');
    expect(ipOf(1, '203.0.113.9, 198.51.100.1')).toBe('198.51.100.1');
    expect(ipOf(2, '203.0.113.9, 198.51.100.1, 10.0.0.2')).toBe('198.51.100.1');
  });
});
