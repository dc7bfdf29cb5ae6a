/** One workload under load: a warm-up, then a measured autocannon run, and a first answer to show. */
import autocannon, { type Result } from 'autocannon';
import type { CpuCost, CpuSampler } from './cpu.ts';
import { graphqlRows } from './graphql-list.ts';

export interface LoadOptions {
  duration: number;
  connections: number;
  warmup: number;
  headers: Record<string, string>;
}

/** A POST of a JSON body (GraphQL), and the rows its answer must hold. */
export interface PostRequest {
  body: string;
  expectRows?: number;
}

export interface Measurement {
  /** mean of the per-second samples */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** answers that were not 2xx, and connection errors / timeouts */
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** CPU ms per request in the server and in PostgreSQL, when sampled */
  cpu: CpuCost | null;
}

export interface FirstAnswer {
  status: number;
  bytes: number;
  /** rows in `data` (1 for a single document), or null when the body is not a content answer */
  rows: number | null;
  total: number | null;
  /** the body, when the status is not 2xx */
  error?: string;
}

const postHeaders = (headers: Record<string, string>, post?: PostRequest): Record<string, string> =>
  post ? { ...headers, 'content-type': 'application/json' } : headers;

/**
 * One request before the load: what it answers (a 4xx today is reported, never skipped). A GraphQL
 * answer is 200 even when it failed, so one with `errors` or without the expected rows counts as a
 * failure (status 200, `error` set), and its load is reported as failing.
 */
export async function firstAnswer(
  url: string,
  headers: Record<string, string>,
  post?: PostRequest,
): Promise<FirstAnswer> {
  const res = await fetch(url, {
    method: post ? 'POST' : 'GET',
    body: post?.body,
    headers: postHeaders(headers, post),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let rows: number | null = null;
  let total: number | null = null;
  let error = res.ok ? undefined : text.slice(0, 2000);
  try {
    const body = JSON.parse(text) as { data?: unknown; meta?: { pagination?: { total?: number } } };
    if (post) {
      const g = graphqlRows(body);
      ({ rows, total } = g);
      if (g.errors || (post.expectRows !== undefined && rows !== post.expectRows))
        error = `expected ${post.expectRows} articles and no errors: ${text.slice(0, 2000)}`;
    } else {
      rows = Array.isArray(body.data) ? body.data.length : body.data ? 1 : 0;
      total = body.meta?.pagination?.total ?? null;
    }
  } catch {
    // not JSON: rows stay unknown
  }
  return { status: res.status, bytes: Buffer.byteLength(text), rows, total, error };
}

const run = (url: string, seconds: number, o: LoadOptions, post?: PostRequest): Promise<Result> =>
  autocannon({
    url,
    duration: seconds,
    connections: o.connections,
    headers: postHeaders(o.headers, post),
    timeout: 30,
    ...(post ? { method: 'POST', body: post.body } : {}),
  });

/** Requests per workload that prime a freshly started server before anything is measured on it. */
export const PRIME_REQUESTS = 200;

/**
 * Send PRIME_REQUESTS of one request, unmeasured: a server started after seeding has compiled
 * none of its read paths yet, and a 1 s warm-up alone would leave the first workloads measuring the JIT.
 */
export async function prime(url: string, o: LoadOptions, post?: PostRequest): Promise<void> {
  await autocannon({
    url,
    amount: PRIME_REQUESTS,
    connections: o.connections,
    headers: postHeaders(o.headers, post),
    timeout: 30,
    ...(post ? { method: 'POST', body: post.body } : {}),
  });
}

/**
 * Warm up (JIT, pool connections, caches) for `o.warmup` s, discard that, then measure for
 * `o.duration` s, sampling CPU over the measured part only.
 */
export async function measureRuns(
  run: (seconds: number) => Promise<Result>,
  o: LoadOptions,
  cpu?: CpuSampler | null,
): Promise<Measurement> {
  if (o.warmup > 0) await run(o.warmup);
  await cpu?.start();
  const r = await run(o.duration);
  const cost = cpu ? await cpu.stop(r.requests.total) : null;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count])),
    cpu: cost,
  };
}

/** `measureRuns` of one request, a GET of `url` or a POST of `post`. */
export const measure = (
  url: string,
  o: LoadOptions,
  cpu?: CpuSampler | null,
  post?: PostRequest,
): Promise<Measurement> => measureRuns((seconds) => run(url, seconds, o, post), o, cpu);
