/**
 * The response cache's parts for one app: generations in memory, their bump in every write
 * transaction, the LISTEN connection that learns other instances' bumps, and the cache itself
 * (absent when `responseCache.enabled` is false; writes still bump, for the other instances).
 */
import type { Logger } from 'pino';
import type { ConnectionOptions } from '../../database/connection.ts';
import type { GenerationBumps } from '../documents/after-commit.ts';
import { bumpGenerations, type GenerationListener, listenForGenerations } from './database.ts';
import { createGenerations, type Generations } from './generations.ts';
import { createResponseCache, type ResponseCache } from './response-cache.ts';

export { noteDocumentRead, noteQueryRead, noteRead } from './response-cache.ts';
export { anyDocumentKey, documentKey } from './document-keys.ts';
export { readDependencies, type ReadShape } from './dependencies.ts';
export type { Generations } from './generations.ts';
export type { ResponseCache } from './response-cache.ts';

export interface CacheLayer {
  readonly generations: Generations;
  /** the document service's hook: bump in the transaction, apply once committed */
  readonly bumps: GenerationBumps;
  /** the cache, when enabled */
  readonly cache: ResponseCache | undefined;
  /** LISTEN (the first attempt awaited; the cache serves once it is connected); the sync made the table */
  start(connection: ConnectionOptions | string, applicationName: string): Promise<void>;
  stop(): Promise<void>;
}

/** The cache layer of one app, from `server.responseCache`. */
export function createCacheLayer(options: { enabled: boolean; maxBytes: number; log: Logger }): CacheLayer {
  const generations = createGenerations();
  const cache = options.enabled ? createResponseCache(generations, { maxBytes: options.maxBytes }) : undefined;
  let listener: GenerationListener | undefined;
  return {
    generations,
    cache,
    bumps: {
      async bump(conn, keys) {
        const bumped = await bumpGenerations(conn, keys);
        return () => {
          for (const [key, generation] of bumped) generations.apply(key, generation);
        };
      },
    },
    async start(connection, applicationName) {
      listener = listenForGenerations({
        connection,
        applicationName,
        generations,
        onResume: () => cache?.clear(),
        log: options.log,
      });
      await listener.ready;
    },
    async stop() {
      await listener?.stop();
    },
  };
}
