/** Command-line options of `npm run bench`. */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** measure this server instead of starting and seeding Vellum */
  url?: string;
  token?: string;
  /** seconds per workload, after the warm-up */
  duration: number;
  connections: number;
  warmup: number;
  /** articles to seed (the dataset has 1000) */
  articles: number;
  json?: string;
  /** exit non-zero when a target is missed */
  strict: boolean;
  /** with --url: run the ceiling on this Vellum database too */
  ceilingDb?: string;
  help: boolean;
}

export const USAGE = `usage: npm run bench -- [options]

  (no --url)            start PostgreSQL and Vellum (examples/blog), seed the dataset, measure,
                        and measure the ceiling (one hand-written SQL statement) on the same data
  --url URL             measure a running server with the same API instead (no seeding);
                        seed it first, e.g. node ../shared/reference-strapi/seed.mjs URL 20 30 1000
  --token KEY           send Authorization: Bearer KEY (with --url)
  --ceiling-db PGURL    with --url: also run the ceiling on this (Vellum) database
  --duration N          seconds measured per workload (default 5), after a 1 s warm-up
  --connections N       concurrent connections (default 10)
  --articles N          articles to seed (default 1000)
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
      json: { type: 'string' },
      strict: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.token && !values.url) throw new Error('--token only applies with --url');
  if (values['ceiling-db'] && !values.url)
    throw new Error('--ceiling-db only applies with --url (the default mode runs the ceiling on its own database)');
  return {
    url: values.url?.replace(/\/+$/, ''),
    token: values.token,
    ceilingDb: values['ceiling-db'],
    duration: positiveInt('duration', values.duration, 5),
    connections: positiveInt('connections', values.connections, 10),
    warmup: 1,
    articles: positiveInt('articles', values.articles, 1000),
    json: values.json,
    strict: values.strict ?? false,
    help: values.help ?? false,
  };
}
