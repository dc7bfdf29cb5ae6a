import type { IncomingMessage } from 'node:http';
import { configurationError } from '../errors.ts';

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** The sizes `byteSize` reads: a number with an optional unit. */
export const BYTE_SIZE = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i;

/** A `server.body` size (`'2mb'`, `'512kb'`, a number of bytes) in bytes, as koa-body reads it. */
export function byteSize(value: string | number): number {
  if (typeof value === 'number') return value;
  const m = BYTE_SIZE.exec(value);
  if (!m) {
    throw configurationError(`config/server: body sizes are bytes or text like '2mb' (got ${JSON.stringify(value)})`);
  }
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

/**
 * Read and discard what is left of a request's body, up to `limit` more bytes. Resolves true
 * once the body has ended (the connection can carry the answer and the next request), false
 * when it is longer than the limit or the connection failed.
 *
 * An answer sent while the client is still sending (a refused upload, a 413) is otherwise lost:
 * the server closes the socket, the bytes still arriving make the kernel reset the connection,
 * and a reset discards what the client had not read yet — the answer. Strapi reads every body
 * before routing, so its clients always get theirs.
 */
export function drainBody(req: IncomingMessage, limit: number): Promise<boolean> {
  if (req.complete || req.readableEnded) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (ended: boolean): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer): void => {
      seen += chunk.length;
      if (seen > limit) {
        req.pause();
        finish(false);
      }
    };
    const onEnd = (): void => finish(true);
    const onError = (): void => finish(false);
    const onClose = (): void => finish(req.complete);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
    req.resume();
  });
}
