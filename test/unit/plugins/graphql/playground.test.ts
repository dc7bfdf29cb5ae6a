import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playgroundEnabled } from '../../../../plugins/graphql/playground/index.ts';
import { playgroundHtml } from '../../../../plugins/graphql/playground/page.ts';
import { startPlaygroundApp } from '../../../helpers/playground-app.ts';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('playgroundEnabled', () => {
  it('is on in every environment but production, and in production with playgroundAlways', () => {
    expect(playgroundEnabled({ nodeEnv: 'development' })).toBe(true);
    expect(playgroundEnabled({ nodeEnv: 'staging' })).toBe(true);
    expect(playgroundEnabled({ nodeEnv: undefined })).toBe(true);
    expect(playgroundEnabled({ nodeEnv: 'production' })).toBe(false);
    expect(playgroundEnabled({ nodeEnv: 'production', playgroundAlways: false })).toBe(false);
    expect(playgroundEnabled({ nodeEnv: 'production', playgroundAlways: true })).toBe(true);
  });
});

describe('playgroundHtml', () => {
  it('escapes the title and the endpoint', () => {
    const html = playgroundHtml('/a"b', '<Title & co>', [], () => '');
    expect(html).toContain('<title>&lt;Title &amp; co&gt;</title>');
    expect(html).toContain('data-endpoint="/a&quot;b"');
  });
});

describe('the playground served at the endpoint', () => {
  let app: Awaited<ReturnType<typeof startPlaygroundApp>>;
  beforeAll(async () => {
    app = await startPlaygroundApp();
  });
  afterAll(() => app.close());

  const page = async (): Promise<string> =>
    (await fetch(`${app.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } })).text();
  const assetUrls = async (): Promise<string[]> =>
    [...(await page()).matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));

  it('answers a browser with the page, under a CSP that runs only its own scripts', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('vary')).toContain('Accept');
    const html = await res.text();
    expect(html).toContain('data-endpoint="/graphql"');
    expect(html).not.toMatch(/<script>/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('leaves every other request to the endpoint: JSON, no Accept, */*, POST', async () => {
    const query = encodeURIComponent('{ hello }');
    const expected = { data: { hello: 'Hello from Vellum' } };
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await fetch(`${app.url}/graphql?query=${query}`, { headers: accept ? { accept } : {} });
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(await res.json()).toEqual(expected);
    }
    const post = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: BROWSER_ACCEPT },
      body: JSON.stringify({ query: '{ hello }' }),
    });
    expect(await post.json()).toEqual(expected);
  });

  it('serves the page’s assets from installed packages, versioned, cached for good, gzipped', async () => {
    const urls = await assetUrls();
    expect(urls.map((u) => u.replace(/\?.*/, ''))).toEqual([
      '/graphql/assets/react.js',
      '/graphql/assets/react-dom.js',
      '/graphql/assets/graphiql.js',
      '/graphql/assets/graphiql.css',
      '/graphql/assets/boot.js',
    ]);
    for (const url of urls) {
      const res = await fetch(`${app.url}${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(url.includes('.css') ? /^text\/css/ : /^text\/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect((await res.text()).length).toBeGreaterThan(100);
    }
  });

  it('checks an unversioned asset URL each time (ETag, 304), and passes on names it does not serve', async () => {
    const first = await fetch(`${app.url}/graphql/assets/boot.js`);
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    // fetch adds `Cache-Control: no-cache` to a conditional request (which a server must not answer 304) unless set
    const revalidate = { 'if-none-match': etag, 'cache-control': 'max-age=0' };
    const again = await fetch(`${app.url}/graphql/assets/boot.js`, { headers: revalidate });
    expect(again.status).toBe(304);
    const plain = await fetch(`${app.url}/graphql/assets/boot.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toContain('GraphiQL');
    for (const name of ['nope.js', '../../package.json', '%2e%2e%2fpackage.json']) {
      expect((await fetch(`${app.url}/graphql/assets/${name}`)).status).toBe(404);
    }
  });
});
