/** Command-line options of `npm run bench`. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultStrapiDir, strapiInstalled } from './strapi.ts';

export interface BenchOptions {
  /** measure this server instead of starting and seeding Vellum */
  url?: string;
  token?: string;
  /** seconds per workload, after the warm-up */
  duration: number;
  connections: number;
  warmup: number;
  /** articles to seed, one run per size in order, each on fresh databases (the dataset has 1000) */
  articles: number[];
  /** the reference Strapi's folder to measure side by side, or null (--no-strapi, or not set up there) */
  strapi: string | null;
  /** why Strapi is not measured, when `strapi` is null */
  noStrapi?: string;
  json?: string;
  /** exit non-zero when a target is missed */
  strict: boolean;
  /** with --url: run the ceiling on this Vellum database too */
  ceilingDb?: string;
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [options]

  (no --url)            start PostgreSQL and Vellum (examples/blog), seed the dataset through REST,
                        and measure right after seeding: every workload cold (RESPONSE_CACHE=false)
                        and warm (cache on, a second Vellum on the same database), the mixed
                        workload (90% reads over 200 URLs, 10% writes), and the ceiling (one
                        hand-written SQL statement); then the reference Strapi, started, seeded and
                        measured the same way, and the issue's targets evaluated from this run
  --url URL             measure a running server with the same API instead (no seeding);
                        seed it first, e.g. node ../shared/reference-strapi/seed.mjs URL 20 30 1000
  --token KEY           send Authorization: Bearer KEY (with --url)
  --ceiling-db PGURL    with --url: also run the ceiling on this (Vellum) database
  --duration N          seconds measured per workload (default 5), after a 1 s warm-up
  --connections N       concurrent connections (default 10)
  --articles N[,M…]     articles to seed (default 1000); a list (1000,100000) runs each size in turn
                        on fresh databases and reports each workload's slowdown between them
  --strapi DIR          the reference Strapi to measure beside Vellum (a folder with start.sh,
                        stop.sh; default $VELLUM_BENCH_STRAPI, else ../shared/reference-strapi from
                        the repository; used when DIR/app/node_modules/.bin/strapi exists)
  --no-strapi           measure Vellum only (Vellum's own targets are still evaluated)
  --json FILE           also write the figures as JSON
  --strict              exit 1 when a target is missed (default: report only, exit 0)
`;

const positiveInt = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes a positive integer, not "${raw}"`);
  return n;
};

/** Parse argv (without node and the script); throws on unknown options or bad values. */
export function parseBenchArgs(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      'ceiling-db': { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      articles: { type: 'string' },
      strapi: { type: 'string' },
      'no-strapi': { type: 'boolean', default: false },
      json: { type: 'string' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.token && !values.url) throw new Error('--token only applies with --url');
  if (values['ceiling-db'] && !values.url)
    throw new Error('--ceiling-db only applies with --url (the default mode runs the ceiling on its own database)');
  if (values.strapi && values['no-strapi']) throw new Error('--strapi and --no-strapi exclude each other');
  const articles = (values.articles ?? '1000').split(',').map((n) => positiveInt('articles', n.trim(), 1000));
  const dir = values.strapi ?? defaultStrapiDir();
  const noStrapi = values['no-strapi']
    ? '--no-strapi'
    : values.url
      ? 'with --url, only that server is measured'
      : strapiInstalled(dir)
        ? undefined
        : `${dir} is not set up (no app/node_modules/.bin/strapi; run its setup.sh)`;
  return {
    strapi: noStrapi ? null : path.resolve(dir),
    noStrapi,
    url: values.url?.replace(/\/+$/, ''),
    token: values.token,
    ceilingDb: values['ceiling-db'],
    duration: positiveInt('duration', values.duration, 5),
    connections: positiveInt('connections', values.connections, 10),
    warmup: 1,
    articles,
    json: values.json,
    strict: values.strict ?? false,
    help: values.help ?? false,
  };
}
