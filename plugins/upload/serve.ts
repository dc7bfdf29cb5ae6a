import { ReadStream } from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { RequestState } from '../../core/index.ts';
import { isActiveType } from './detect-type.ts';

/**
 * The CSP of every uploaded file: it loads nothing but its own images and media, and `sandbox`
 * gives a file opened as a document an opaque origin without scripts, so even one a browser
 * renders cannot reach the API's origin (its storage, same-origin requests with its cookies).
 */
export const UPLOAD_CSP =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; " + 'sandbox';

/**
 * Harden the responses that serve uploaded files (the HTTP layer serves them from the public
 * folder): nosniff, the sandboxing CSP, and `Content-Disposition: attachment` for what a browser
 * would run (HTML, SVG, XML, JS), which `<img>` still displays but a visit only downloads. The
 * file actually sent decides, not the URL: `/x/../uploads/a.html` or `/%75ploads/a.html` reach
 * the same file.
 */
export function uploadResponseHeaders(uploadsDir: string): Koa.Middleware<RequestState> {
  // lower case: on a case-insensitive file system /UPLOADS/a.html is the same file (extra headers never hurt)
  const inside = path.resolve(uploadsDir).toLowerCase() + path.sep;
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (!(body instanceof ReadStream) || !path.resolve(String(body.path)).toLowerCase().startsWith(inside)) return;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', UPLOAD_CSP);
    if (isActiveType(ctx.type)) ctx.set('Content-Disposition', 'attachment');
  };
}
