import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { BOOT_SCRIPT } from './boot.ts';

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** A file the page loads, from an installed npm package (no CDN: the playground works offline). */
interface PackageFile {
  name: string;
  pkg: string;
  file: string;
  type: string;
}

/**
 * The prebuilt browser bundles: React 18's UMD builds (React 19 ships none) and GraphiQL 4's
 * UMD bundle (the last major with one), which expects `React` and `ReactDOM` as globals and
 * bundles graphql-js and CodeMirror. In the order the page loads them.
 */
const PACKAGE_FILES: PackageFile[] = [
  { name: 'react.js', pkg: 'react', file: 'umd/react.production.min.js', type: JS },
  { name: 'react-dom.js', pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: JS },
  { name: 'graphiql.js', pkg: 'graphiql', file: 'graphiql.min.js', type: JS },
  { name: 'graphiql.css', pkg: 'graphiql', file: 'graphiql.min.css', type: CSS },
];

export interface Asset {
  name: string;
  type: string;
  /** Changes whenever the content does: the page's URLs carry it, so a cached copy is never stale. */
  version: string;
  /** Read on first use: an app that never serves the playground never reads the bundles. */
  body(): Buffer;
  /** The body gzipped (GraphiQL's bundle is about 1 MB, a quarter of that compressed), also read on first use. */
  gzipped(): Buffer;
}

/**
 * Where each asset is, found now so that a missing package fails when the app starts, not when a
 * browser first asks. Resolved from this module (createRequire): from the repository's sources,
 * or from dist/ in a project that installed Vellum, the packages are Vellum's own dependencies.
 * `<pkg>/package.json` rather than the file itself: graphiql's `exports` do not list its bundle.
 */
export function playgroundAssets(): Map<string, Asset> {
  const require = createRequire(import.meta.url);
  const assets = new Map<string, Asset>();
  for (const { name, pkg, file, type } of PACKAGE_FILES) {
    let manifest: string;
    try {
      manifest = require.resolve(`${pkg}/package.json`);
    } catch (cause) {
      throw new Error(`the GraphQL playground needs the npm package "${pkg}", which is not installed`, { cause });
    }
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    const full = path.join(path.dirname(manifest), file);
    assets.set(
      name,
      lazyAsset(name, type, version, () => readFileSync(full)),
    );
  }
  const boot = Buffer.from(BOOT_SCRIPT);
  const bootVersion = createHash('sha256').update(boot).digest('hex').slice(0, 12);
  assets.set(
    'boot.js',
    lazyAsset('boot.js', JS, bootVersion, () => boot),
  );
  return assets;
}

function lazyAsset(name: string, type: string, version: string, read: () => Buffer): Asset {
  let body: Buffer | undefined;
  let gzipped: Buffer | undefined;
  const asset: Asset = {
    name,
    type,
    version,
    body: () => (body ??= read()),
    gzipped: () => (gzipped ??= gzipSync(asset.body())),
  };
  return asset;
}
