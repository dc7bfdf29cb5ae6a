/**
 * `npx tsx scripts/bench/seed-rate.ts [--articles N] [--strapi DIR]`: seed the bench's dataset into
 * a fresh Vellum (or, with --strapi, the reference Strapi) through REST and print the rate of each
 * block of 1000 article creates. A rate that falls as the table grows is a per-write cost that
 * grows with the table, which is what keeps a 100k seed from finishing.
 */
import { parseArgs } from 'node:util';
import { cleanUpOnSignals, createCleanup } from './cleanup.ts';
import { startBenchDatabase } from './database.ts';
import { createApi, type Api } from './http.ts';
import { openObserver } from './observer.ts';
import { DEFAULT_COUNTS, PROGRESS_EVERY, seedBlog } from './seed.ts';
import { startVellum } from './server.ts';
import { startStrapi } from './strapi.ts';

const say = (message: string): void => void process.stderr.write(`seed-rate: ${message}\n`);

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { articles: { type: 'string' }, strapi: { type: 'string' } } });
  const articles = Number(values.articles ?? 10_000);
  const cleanup = createCleanup();
  const { interrupted } = cleanUpOnSignals(cleanup);
  try {
    let api: Api;
    if (values.strapi) {
      const strapi = await startStrapi(values.strapi, cleanup);
      api = createApi(strapi.url, strapi.token);
    } else {
      const db = await startBenchDatabase(cleanup, interrupted);
      say(`database ${db.url}`);
      const vellum = await startVellum(db.url, cleanup);
      const observer = await openObserver(vellum.appDir, db.url, cleanup);
      api = createApi(vellum.url, await observer.createToken('seed rate'));
    }
    say(`seeding ${articles} articles into ${values.strapi ? 'Strapi' : 'Vellum'} at ${api.base}`);
    const result = await seedBlog(api, { ...DEFAULT_COUNTS, articles }, 42, (done, seconds) => {
      const block = done % PROGRESS_EVERY || PROGRESS_EVERY;
      say(`${done} articles: last ${block} at ${(block / seconds).toFixed(1)} creates/s (${seconds.toFixed(1)} s)`);
    });
    say(`done: ${result.requests} requests in ${result.seconds.toFixed(1)} s`);
    return 0;
  } catch (err) {
    if (!interrupted()) say((err as Error).stack ?? String(err));
    return 1;
  } finally {
    await cleanup.run();
  }
}

process.exitCode = await main();
