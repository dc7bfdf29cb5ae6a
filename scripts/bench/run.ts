/**
 * `npm run bench`: for each dataset size, seed the blog dataset into a fresh Vellum through its
 * REST API and measure right after seeding (nothing in between): every workload cold (a Vellum
 * with RESPONSE_CACHE=false) and warm (a second Vellum, cache on, on the same database), the
 * mixed workload, and the ceiling (one hand-written SQL statement) on the same data; then start,
 * seed and measure the reference Strapi the same way, and evaluate the issues' targets from this
 * run. With --url, the same workloads against any server with the same API. Seeding and the
 * mixed workload's writes send a full-access API token; reads are public requests. Progress goes
 * to stderr, the report to stdout. See USAGE in args.ts.
 */
import os from 'node:os';
import { writeFile } from 'node:fs/promises';
import { parseBenchArgs, USAGE, type BenchOptions } from './args.ts';
import { cleanUpOnSignals, createCleanup, type Cleanup } from './cleanup.ts';
import { startBenchDatabase } from './database.ts';
import { startVellum } from './server.ts';
import { createApi, type Api } from './http.ts';
import { openObserver } from './observer.ts';
import { DEFAULT_COUNTS, PROGRESS_EVERY, seedBlog, type SeedResult } from './seed.ts';
import { discoverTargets } from './discover.ts';
import { buildWorkloads, type Workload } from './workloads.ts';
import { CEILING_PATH, startCeiling } from './ceiling.ts';
import { compareAnswers } from './compare.ts';
import { firstAnswer, measure, prime, PRIME_REQUESTS, type LoadOptions } from './load.ts';
import { createCpuSampler, type CpuSampler } from './cpu.ts';
import {
  bothRuns,
  measureMixed,
  MIXED_PRIME_REQUESTS,
  mixedSequence,
  primeMixed,
  type MixedMeasurement,
} from './mixed.ts';
import { startStrapi } from './strapi.ts';
import {
  evaluate,
  formatChecks,
  formatRun,
  scaling,
  type CeilingResult,
  type Check,
  type Side,
  type SizeRun,
  type WorkloadResult,
} from './report.ts';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
const since = (t: number): string => `${((performance.now() - t) / 1000).toFixed(1)} s`;

/** A server measured here: where it answers, and what the CPU sampler and error messages need. */
interface Server {
  url: string;
  pid?: number;
  databaseUrl?: string;
  output?: () => string;
  sampler?: Promise<CpuSampler | null>;
}

/**
 * The CPU sampler of a child server on a database we know, made on first use and kept on the
 * server (one database connection each, closed by `cleanup`); null when it cannot be sampled.
 */
async function sampler(server: Server, cleanup: Cleanup): Promise<CpuSampler | null> {
  if (!server.pid || !server.databaseUrl) return null;
  server.sampler ??= createCpuSampler(server.pid, server.databaseUrl).then(
    (s) => {
      if (s) cleanup.add('close the CPU sampler', () => s.close());
      return s;
    },
    () => null,
  );
  return server.sampler;
}

/** The message of the last error the server logged (pino JSON), to say why a workload fails. */
function lastLoggedError(output: string): string | undefined {
  for (const line of output.split('\n').reverse()) {
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string; stack?: string } };
      if ((entry.level ?? 0) >= 50)
        return [entry.msg, entry.err?.stack?.split('\n').slice(0, 3).join(' | ') ?? entry.err?.message]
          .filter(Boolean)
          .join(': ');
    } catch {
      // not a log line
    }
  }
  return undefined;
}

/** `failure`, when it is a 5xx (`status`), followed by the error the server logged for it. */
async function withServerLog(failure: string | undefined, status: number, server: Server): Promise<string | undefined> {
  if (status < 500 || !server.output) return failure;
  await new Promise((r) => setTimeout(r, 100)); // let the child's log line arrive
  const logged = lastLoggedError(server.output());
  return logged ? `${failure}\n    server log: ${logged}` : failure;
}

/** A mixed run whose first failure was a 5xx, with the error the server logged. */
async function explained(m: MixedMeasurement, server: Server): Promise<MixedMeasurement> {
  const status = Number(m.firstFailure?.slice(0, 3) ?? 0);
  return { ...m, firstFailure: await withServerLog(m.firstFailure, status, server) };
}

/** One workload on one server: its first answer (failures explained), then the load. */
async function measureSide(
  label: string,
  server: Server,
  w: Workload,
  load: LoadOptions,
  cleanup: Cleanup,
): Promise<Side> {
  progress(`measuring ${w.name} (${label})…`);
  const post = w.body === undefined ? undefined : { body: w.body, expectRows: w.expectRows };
  const first = await firstAnswer(server.url + w.path, load.headers, post);
  if (first.status >= 300 || first.error) {
    progress(`!!! ${w.name} (${label}) answers ${first.status}: ${first.error?.slice(0, 300)}`);
    first.error = await withServerLog(first.error, first.status, server);
  }
  const cpu = await sampler(server, cleanup);
  return { first, measured: await measure(server.url + w.path, load, cpu, post) };
}

const seedProgress = (who: string) => (done: number, seconds: number) => {
  const block = done % PROGRESS_EVERY || PROGRESS_EVERY;
  progress(`${who}: ${done} articles (last ${block} at ${(block / seconds).toFixed(1)}/s)`);
};

/** Seed `articles` through `api`; a server that died while seeding explains itself in its own output. */
async function seed(who: string, api: Api, articles: number, server: Pick<Server, 'output'>): Promise<SeedResult> {
  const t = performance.now();
  progress(`seeding ${articles} articles into ${who} through REST with a full-access token…`);
  const result = await seedBlog(api, { ...DEFAULT_COUNTS, articles }, 42, seedProgress(who)).catch((err: Error) => {
    throw new Error(`${err.message}\n--- ${who}'s last output:\n${server.output?.() || '(none)'}`, { cause: err });
  });
  progress(`${who} seeded in ${since(t)} (${result.requests} requests); measuring right away`);
  return result;
}

async function measureCeiling(vellum: Server, load: LoadOptions, cleanup: Cleanup): Promise<CeilingResult> {
  const ceiling = await startCeiling(vellum.databaseUrl!, cleanup);
  const comparison = await compareAnswers(vellum.url, ceiling.url, CEILING_PATH, load.headers);
  progress(`ceiling vs Vellum on ${CEILING_PATH}: ${comparison.equal ? 'same answer' : 'DIFFERENT answers'}`);
  progress('measuring ceiling…');
  const first = await firstAnswer(ceiling.url + CEILING_PATH, {});
  const cpu = await sampler({ ...ceiling, databaseUrl: vellum.databaseUrl }, cleanup);
  return { first, measured: await measure(ceiling.url + CEILING_PATH, { ...load, headers: {} }, cpu), comparison };
}

/**
 * Vellum at one size: a fresh database, the cold server (seeded through), the warm one and the
 * flat-shape one on the same database, each workload on each, the ceiling, the mixed workload
 * (last: its writes change the data).
 */
async function runVellum(articles: number, load: LoadOptions, cleanup: Cleanup, quiet: () => boolean) {
  let t = performance.now();
  const db = await startBenchDatabase(cleanup, quiet);
  progress(`PostgreSQL (${db.kind}) ready in ${since(t)}`);
  t = performance.now();
  const cold = { ...(await startVellum(db.url, cleanup, { RESPONSE_CACHE: 'false' })), databaseUrl: db.url };
  const observer = await openObserver(cold.appDir, db.url, cleanup);
  progress(`Vellum, cache off (pid ${cold.pid}), serving ${cold.url} in ${since(t)}`);
  const token = await observer.createToken('bench');
  const seeded = await seed('Vellum', createApi(cold.url, token), articles, cold);
  // started once the data is there, as a server that has run for a while would be
  const warm = { ...(await startVellum(db.url, cleanup)), databaseUrl: db.url };
  const flat = {
    ...(await startVellum(db.url, cleanup, { GRAPHQL_SHAPE: 'flat', RESPONSE_CACHE: 'false' })),
    databaseUrl: db.url,
  };
  progress(`Vellum, cache on (pid ${warm.pid}), and with the flat GraphQL shape (pid ${flat.pid})`);
  const targets = await discoverTargets(createApi(cold.url));
  const workloads = buildWorkloads(targets);
  const statements = await observer
    .countStatements(workloads.filter((w) => !w.shape))
    .catch((err: Error): Array<number | null> => {
      progress(`could not count statements: ${err.message}`);
      return [];
    });
  progress(`priming the three servers (${PRIME_REQUESTS} unmeasured requests of each workload)…`);
  for (const w of workloads) {
    const post = w.body === undefined ? undefined : { body: w.body };
    // the flat server gets the REST workloads too: it serves them as the cold one does, and its
    // GraphQL was otherwise measured on code the cold one had run ten workloads longer (warmed
    // up alike: graphql-list-flat 83-96% -> 89-105% of graphql-list, two runs each)
    const servers = w.shape ? [flat] : w.rest ? [cold, warm, flat] : [cold, warm];
    for (const server of servers) await prime(server.url + w.path, load, post);
  }
  const results: WorkloadResult[] = [];
  for (const [i, w] of workloads.entries()) {
    const entity = !w.shape;
    const coldSide = await measureSide('cold', entity ? cold : flat, w, load, cleanup);
    results.push({
      ...w,
      cold: { ...coldSide, statements: entity ? statements[i] : undefined },
      // the flat shape is measured cold only: the cache is the same code whatever the shape
      warm: entity ? await measureSide('warm', warm, w, load, cleanup) : undefined,
    });
  }
  const ceiling = await measureCeiling(cold, load, cleanup);
  const sequence = mixedSequence(targets);
  progress(`priming both servers with the mixed sequence (${MIXED_PRIME_REQUESTS} unmeasured requests)…`);
  for (const server of [warm, cold]) await primeMixed(server.url, sequence, token, load);
  progress('measuring the mixed workload twice on each server: warm, cold, cold, warm…');
  const run = async (server: Server) =>
    explained(await measureMixed(server.url, sequence, token, load, await sampler(server, cleanup)), server);
  const [warm1, cold1] = [await run(warm), await run(cold)];
  const [cold2, warm2] = [await run(cold), await run(warm)];
  return { seeded, targets, results, ceiling, mixed: { warm: bothRuns(warm1, warm2), cold: bothRuns(cold1, cold2) } };
}

/** The reference Strapi at one size: started fresh, seeded the same way, the REST workloads, flat GraphQL, mixed. */
async function runStrapi(dir: string, articles: number, load: LoadOptions, cleanup: Cleanup) {
  const t = performance.now();
  const strapi = await startStrapi(dir, cleanup);
  progress(`reference Strapi (pid ${strapi.pid ?? '?'}) serving ${strapi.url} in ${since(t)}`);
  const seeded = await seed('Strapi', createApi(strapi.url, strapi.token), articles, {});
  const targets = await discoverTargets(createApi(strapi.url));
  const sides = new Map<string, Side>();
  // Strapi 5's GraphQL is the flat shape: graphql-list (entity shape) has no Strapi counterpart
  const workloads = buildWorkloads(targets).filter((x) => x.rest || x.shape === 'flat');
  // primed as Vellum's servers are, except GraphQL: at Strapi's few req/s, 200 of them take a minute
  for (const w of workloads.filter((x) => x.rest)) await prime(strapi.url + w.path, load);
  for (const w of workloads) sides.set(w.name, await measureSide('Strapi', strapi, w, load, cleanup));
  const sequence = mixedSequence(targets);
  progress(`priming Strapi with the mixed sequence (${MIXED_PRIME_REQUESTS} unmeasured requests)…`);
  await primeMixed(strapi.url, sequence, strapi.token, load);
  progress('measuring the mixed workload twice (Strapi)…');
  const run = async () => measureMixed(strapi.url, sequence, strapi.token, load, await sampler(strapi, cleanup));
  const mixed = bothRuns(await run(), await run());
  // stop.sh runs with the cleanup, after the samplers' connections to its database are closed
  return { seeded, sides, mixed };
}

/** One size, Vellum then Strapi (never both at once: they would share the CPU), each cleaned up before the next. */
async function runSize(
  articles: number,
  options: BenchOptions,
  load: LoadOptions,
  cleanup: Cleanup,
  quiet: () => boolean,
): Promise<SizeRun> {
  const local = createCleanup();
  cleanup.add(`what the ${articles}-article run started`, () => local.run());
  let vellum: Awaited<ReturnType<typeof runVellum>>;
  try {
    vellum = await runVellum(articles, load, local, quiet);
  } finally {
    await local.run();
  }
  const run: SizeRun = {
    articles,
    seed: vellum.seeded,
    targets: vellum.targets,
    workloads: vellum.results,
    ceiling: vellum.ceiling,
    mixed: vellum.mixed,
    noStrapi: options.noStrapi,
  };
  if (options.strapi) {
    const strapiCleanup = createCleanup();
    cleanup.add(`the ${articles}-article Strapi run`, () => strapiCleanup.run());
    try {
      const s = await runStrapi(options.strapi, articles, load, strapiCleanup);
      run.strapiSeed = s.seeded;
      run.mixed.strapi = s.mixed;
      for (const w of run.workloads) w.strapi = s.sides.get(w.name);
    } finally {
      await strapiCleanup.run();
    }
  }
  return run;
}

/** --url: the workloads once against that server (shown as "cold"), no seeding, no Strapi. */
async function runExternal(options: BenchOptions, load: LoadOptions, cleanup: Cleanup): Promise<SizeRun> {
  const server: Server = { url: options.url! };
  const targets = await discoverTargets(createApi(server.url, options.token));
  const workloads: WorkloadResult[] = [];
  for (const w of buildWorkloads(targets))
    workloads.push({ ...w, cold: await measureSide('cold', server, w, load, cleanup) });
  const ceiling = options.ceilingDb
    ? await measureCeiling({ ...server, databaseUrl: options.ceilingDb }, load, cleanup)
    : undefined;
  const mixed = options.token
    ? { cold: await measureMixed(server.url, mixedSequence(targets), options.token, load) }
    : {};
  return { articles: targets.articles, targets, workloads, ceiling, mixed, noStrapi: options.noStrapi };
}

function header(options: BenchOptions): string {
  return [
    `Vellum bench, ${new Date().toISOString()}: node ${process.version}, ${os.cpus().length} CPUs, ` +
      `${options.duration} s x ${options.connections} connections per workload after a ${options.warmup} s warm-up`,
    options.url
      ? `server: ${options.url} (--url), requests ${options.token ? 'with the --token key' : 'public'}`
      : 'servers: Vellum (examples/blog, child processes on one PostgreSQL database: cold = RESPONSE_CACHE=false, ' +
        'warm = cache on, flat = GRAPHQL_SHAPE=flat cache off)' +
        (options.strapi ? `; reference Strapi from ${options.strapi}` : ''),
    'reads are public (no Authorization header), as a frontend sends them; measured right after seeding',
  ].join('\n');
}

function dataset(run: SizeRun): string {
  const line = (who: string, s?: SeedResult): string =>
    s
      ? `${who}: ${s.counts.media} files, ${s.counts.tags} tags, ${s.counts.authors} authors, ${s.counts.articles} ` +
        `articles (${s.counts.drafts} drafts, ${s.counts.localizations} fr), seeded through REST in ` +
        `${s.seconds.toFixed(1)} s (${s.requests} requests, ${(s.counts.articles / s.seconds).toFixed(1)} articles/s)`
      : '';
  const t = run.targets;
  return [
    line('Vellum', run.seed),
    line('Strapi', run.strapiSeed),
    `found: ${t.articles} published articles; findOne ${t.documentId}; tags ${t.tags.join(' + ')}; ` +
      `views >= ${t.viewsGte}; publishDate < ${t.dateLt}; category ${t.categories[0]}`,
  ]
    .filter(Boolean)
    .join('\n');
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const cleanup = createCleanup();
  const { interrupted } = cleanUpOnSignals(cleanup);
  const started = performance.now();
  const load: LoadOptions = {
    duration: options.duration,
    connections: options.connections,
    warmup: options.warmup,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  };
  if (options.noStrapi && !options.url) progress(`Strapi not measured: ${options.noStrapi}`);
  try {
    const runs: Array<SizeRun & { checks: Check[] }> = [];
    const sizes = options.url ? [0] : options.articles;
    for (const articles of sizes) {
      const run = options.url
        ? await runExternal(options, load, cleanup)
        : await runSize(articles, options, load, cleanup, interrupted);
      runs.push({ ...run, checks: evaluate(run) });
    }
    const out = [header(options), ''];
    for (const run of runs) out.push(dataset(run), '', formatRun(run, run.checks), '');
    const scale = runs.length > 1 ? scaling(runs) : undefined;
    if (scale) out.push(scale.text, '', 'targets:', ...formatChecks(scale.checks), '');
    process.stdout.write(`\n${out.join('\n')}`);
    progress(`done in ${since(started)}`);
    if (options.json) {
      const json = {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        options: { ...options, token: options.token ? '***' : undefined },
        runs,
        scaling: scale?.checks,
      };
      await writeFile(options.json, `${JSON.stringify(json, null, 2)}\n`);
      progress(`figures written to ${options.json}`);
    }
    const all = [...runs.flatMap((r) => r.checks), ...(scale?.checks ?? [])];
    return options.strict && all.some((c) => !c.pass) ? 1 : 0;
  } catch (err) {
    // after Ctrl-C, what failed failed because its processes were stopped
    if (!interrupted()) process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`);
    return 1;
  } finally {
    await cleanup.run();
  }
}

process.exitCode = await main();
