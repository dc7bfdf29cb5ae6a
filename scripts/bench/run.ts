/**
 * `npm run bench`: seed the blog dataset into a fresh Vellum, load-test the fixed
 * workloads with autocannon, and measure the ceiling (one hand-written SQL statement) on the
 * same data; or, with --url, the same workloads against any server with the same API.
 * Seeding sends a full-access API token; the workloads and the ceiling are public requests.
 * Progress goes to stderr, the report to stdout. See USAGE in args.ts.
 */
import os from 'node:os';
import { writeFile } from 'node:fs/promises';
import { parseBenchArgs, USAGE, type BenchOptions } from './args.ts';
import { cleanUpOnSignals, createCleanup, type Cleanup } from './cleanup.ts';
import { analyzeDatabase, startBenchDatabase } from './database.ts';
import { startVellum } from './server.ts';
import { createApi } from './http.ts';
import { openObserver, type Observer } from './observer.ts';
import { DEFAULT_COUNTS, seedBlog, type SeedResult } from './seed.ts';
import { discoverTargets, type Targets } from './discover.ts';
import { buildWorkloads } from './workloads.ts';
import { GRAPHQL_FLAT_BODY, GRAPHQL_PATH } from './graphql-list.ts';
import { STRAPI_RPS } from './targets.ts';
import { CEILING_PATH, startCeiling } from './ceiling.ts';
import { compareAnswers } from './compare.ts';
import { firstAnswer, measure, type LoadOptions } from './load.ts';
import { createCpuSampler, type CpuSampler } from './cpu.ts';
import { evaluate, formatReport, type CeilingResult, type WorkloadResult } from './report.ts';

const progress = (message: string): void => void process.stderr.write(`bench: ${message}\n`);
const since = (t: number): string => `${((performance.now() - t) / 1000).toFixed(1)} s`;

interface Subject {
  /** who is measured, for the header */
  label: string;
  url: string;
  seed?: SeedResult;
  /** a Vellum database the ceiling can run on */
  databaseUrl?: string;
  /** an in-process instance beside a Vellum started here (statements are counted on it) */
  observer?: Observer;
  /** the last lines the server process wrote, when it is our child */
  output?: () => string;
  /** the server process, when it is our child (its CPU is sampled) */
  pid?: number;
}

/** A CPU sampler for a child server on a database we know, closed by `cleanup`; null otherwise. */
async function sampler(
  pid: number | undefined,
  databaseUrl: string | undefined,
  cleanup: Cleanup,
): Promise<CpuSampler | null> {
  if (!pid || !databaseUrl) return null;
  const s = await createCpuSampler(pid, databaseUrl).catch(() => null);
  if (s) cleanup.add('close the CPU sampler', () => s.close());
  return s;
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

/** Default mode: PostgreSQL, Vellum in a child process, the dataset through the REST API. */
async function startSeededVellum(options: BenchOptions, cleanup: Cleanup, quiet: () => boolean): Promise<Subject> {
  let t = performance.now();
  const db = await startBenchDatabase(cleanup, quiet);
  progress(`PostgreSQL (${db.kind}) ready in ${since(t)}`);
  t = performance.now();
  const vellum = await startVellum(db.url, cleanup);
  const observer = await openObserver(vellum.appDir, db.url, cleanup);
  progress(
    `Vellum (pid ${vellum.pid}) serving ${vellum.url} in ${since(t)}; ` +
      `seeding ${options.articles} articles with a full-access token…`,
  );
  const token = await observer.createToken('bench seeding');
  const seed = await seedBlog(createApi(vellum.url, token), { ...DEFAULT_COUNTS, articles: options.articles }).catch(
    (err: Error) => {
      // a server that died while seeding explains itself in its own output
      throw new Error(`${err.message}\n--- Vellum's last output:\n${vellum.output() || '(none)'}`, { cause: err });
    },
  );
  await analyzeDatabase(db.url);
  progress(`seeded in ${seed.seconds.toFixed(1)} s (${seed.requests} requests), then ANALYZE`);
  return {
    label: `Vellum (examples/blog, child process) on PostgreSQL (${db.kind})`,
    url: vellum.url,
    seed,
    databaseUrl: db.url,
    observer,
    output: vellum.output,
    pid: vellum.pid,
  };
}

/**
 * `graphql-list-flat`: a second Vellum on the same database, the blog with `GRAPHQL_SHAPE=flat`
 * (Strapi 5's schema), asked for the same documents and fields as `graphql-list` (default mode only).
 */
async function measureFlat(
  subject: Subject,
  load: LoadOptions,
  cleanup: Cleanup,
  targets: Targets,
): Promise<WorkloadResult | undefined> {
  if (!subject.databaseUrl) return undefined;
  const server = await startVellum(subject.databaseUrl, cleanup, { GRAPHQL_SHAPE: 'flat' });
  progress(`Vellum with the flat shape (pid ${server.pid}) serving ${server.url}; measuring graphql-list-flat…`);
  const post = { body: GRAPHQL_FLAT_BODY, expectRows: Math.min(25, targets.articles) };
  const first = await firstAnswer(server.url + GRAPHQL_PATH, load.headers, post);
  if (first.error) progress(`!!! graphql-list-flat answers ${first.status}: ${first.error.slice(0, 300)}`);
  // a fresh process, where the entity shape's server has served every workload before: one unmeasured pass first
  await measure(server.url + GRAPHQL_PATH, load, null, post);
  const cpu = await sampler(server.pid, subject.databaseUrl, cleanup);
  return {
    name: 'graphql-list-flat',
    path: GRAPHQL_PATH,
    body: GRAPHQL_FLAT_BODY,
    about: "the same 25 articles and fields in Strapi 5's flat shape",
    strapi: STRAPI_RPS['graphql-list-flat'],
    first,
    measured: await measure(server.url + GRAPHQL_PATH, load, cpu, post),
  };
}

async function measureCeiling(
  subject: Subject,
  load: LoadOptions,
  cleanup: Cleanup,
): Promise<CeilingResult | undefined> {
  if (!subject.databaseUrl) return undefined;
  const ceiling = await startCeiling(subject.databaseUrl, cleanup);
  const comparison = await compareAnswers(subject.url, ceiling.url, CEILING_PATH, load.headers);
  progress(
    `ceiling (pid ${ceiling.pid}) vs Vellum on ${CEILING_PATH}: ` +
      (comparison.equal ? 'same answer' : 'DIFFERENT answers'),
  );
  progress('measuring ceiling…');
  const first = await firstAnswer(ceiling.url + CEILING_PATH, {});
  const cpu = await sampler(ceiling.pid, subject.databaseUrl, cleanup);
  return { first, measured: await measure(ceiling.url + CEILING_PATH, { ...load, headers: {} }, cpu), comparison };
}

function header(options: BenchOptions, subject: Subject, targets: Targets): string {
  const lines = [
    `Vellum bench, ${new Date().toISOString()}: node ${process.version}, ${os.cpus().length} CPUs, ` +
      `${options.duration} s x ${options.connections} connections per workload after a ${options.warmup} s warm-up`,
    `server: ${subject.label} at ${subject.url}`,
  ];
  const s = subject.seed;
  if (s)
    lines.push(
      `dataset: ${s.counts.media} files, ${s.counts.tags} tags, ${s.counts.authors} authors, ` +
        `${s.counts.articles} articles (${s.counts.drafts} drafts, ${s.counts.localizations} fr), ` +
        `seeded in ${s.seconds.toFixed(1)} s (${s.requests} requests, with a full-access API token)`,
    );
  const audience = options.token
    ? 'with the --token key'
    : 'public (no Authorization header), as a frontend sends them';
  lines.push(`requests: ${audience}`);
  lines.push(
    `found: ${targets.articles} published articles; findOne ${targets.documentId}; ` +
      `tags ${targets.tags.join(' + ')}; views >= ${targets.viewsGte}`,
  );
  return lines.join('\n');
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
  let subject: Subject | undefined;
  try {
    subject = options.url
      ? { label: 'external server', url: options.url, databaseUrl: options.ceilingDb }
      : await startSeededVellum(options, cleanup, interrupted);
    // what every measured request sends: the --token key with --url; nothing for a Vellum
    // started here, whose requests are public as a frontend's are (the blog's Public role reads
    // articles, authors, tags, files)
    const api = createApi(subject.url, options.token);
    const targets = await discoverTargets(api);
    const workloads = buildWorkloads(targets);
    const load: LoadOptions = {
      duration: options.duration,
      connections: options.connections,
      warmup: options.warmup,
      headers: api.headers,
    };

    const statements = subject.observer
      ? await subject.observer.countStatements(workloads).catch((err: Error) => {
          progress(`could not count statements: ${err.message}`);
          return [];
        })
      : [];
    const cpu = await sampler(subject.pid, subject.databaseUrl, cleanup);
    const results: WorkloadResult[] = [];
    for (const [i, w] of workloads.entries()) {
      progress(`measuring ${w.name}…`);
      const post = w.body === undefined ? undefined : { body: w.body, expectRows: w.expectRows };
      const first = await firstAnswer(subject.url + w.path, api.headers, post);
      if (first.status >= 300 || first.error) {
        progress(`!!! ${w.name} answers ${first.status}: ${first.error?.slice(0, 300)}`);
        await new Promise((r) => setTimeout(r, 100)); // let the child's log line arrive
        const logged = first.status >= 500 && subject.output ? lastLoggedError(subject.output()) : undefined;
        if (logged) first.error = `${first.error}\n    server log: ${logged}`;
      }
      results.push({
        ...w,
        first,
        measured: await measure(subject.url + w.path, load, cpu, post),
        statements: statements[i],
      });
    }
    const flat = await measureFlat(subject, load, cleanup, targets);
    if (flat) results.push(flat);
    const ceiling = await measureCeiling(subject, load, cleanup);
    const checks = evaluate(results, ceiling);

    process.stdout.write(`\n${header(options, subject, targets)}\n\n${formatReport(results, ceiling, checks)}\n`);
    progress(`done in ${since(started)}`);
    if (options.json) {
      const json = {
        date: new Date().toISOString(),
        node: process.version,
        cpus: os.cpus().length,
        options: { ...options, token: options.token ? '***' : undefined },
        server: subject.label,
        url: subject.url,
        seed: subject.seed,
        targets,
        results,
        ceiling,
        checks,
      };
      await writeFile(options.json, `${JSON.stringify(json, null, 2)}\n`);
      progress(`figures written to ${options.json}`);
    }
    return options.strict && checks.some((c) => !c.pass) ? 1 : 0;
  } catch (err) {
    // after Ctrl-C, what failed failed because its processes were stopped
    if (!interrupted()) {
      process.stderr.write(`bench: ${(err as Error)?.stack ?? String(err)}\n`);
      // a server that died under load explains itself in its own output
      const output = subject?.output?.();
      if (output) process.stderr.write(`--- the server's last output:\n${output}\n`);
    }
    return 1;
  } finally {
    await cleanup.run();
  }
}

process.exitCode = await main();
