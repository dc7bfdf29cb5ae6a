/**
 * The mixed workload (issue 16): 90% reads over 200 distinct URLs (sorted lists and their pages,
 * common filters, findOnes of real documents), 10% writes (`PUT /api/articles/:documentId` changing
 * `views` or `title`, with a full-access token; the reads are public). The sequence is drawn once
 * from a seeded PRNG, so every server and every run gets the same requests in the same order; the
 * connections take the next request of that one sequence in turn.
 */
import autocannon from 'autocannon';
import qs from 'qs';
import { createRandom } from './prng.ts';
import type { Targets } from './discover.ts';
import { SORT } from './workloads.ts';
import { measureRuns, type LoadOptions, type Measurement } from './load.ts';
import type { CpuSampler } from './cpu.ts';

export interface MixedRequest {
  method: 'GET' | 'PUT';
  path: string;
  body?: string;
}

/** The mixed workload's figures, and what the first failing answer said (when one failed). */
export type MixedMeasurement = Measurement & { firstFailure?: string };

/** Distinct read URLs, and one write in this many requests. */
export const MIXED_READS = 200;
export const WRITE_EVERY = 10;
/** The sequence's length before it repeats. */
const LENGTH = 5000;

const url = (params: object): string => `/api/articles?${qs.stringify(params, { encodeValuesOnly: true })}`;

/** The 200 read URLs: a quarter each of list pages, range filters, enumeration filters, findOnes. */
export function mixedReads(t: Targets): string[] {
  const quarter = MIXED_READS / 4;
  const pages = Math.max(1, Math.ceil(t.articles / 25));
  const reads = new Set<string>();
  for (let i = 0; reads.size < quarter; i++)
    reads.add(url({ sort: SORT, pagination: { page: (i % pages) + 1, pageSize: 25 + Math.floor(i / pages) } }));
  for (let i = 0; reads.size < 2 * quarter; i++)
    reads.add(url({ filters: { views: { $gte: i * 1000 } }, sort: SORT, pagination: { page: 1 + (i % 3) } }));
  for (let i = 0; reads.size < 3 * quarter; i++) {
    const category = t.categories[i % t.categories.length];
    const tag = t.allTags[Math.floor(i / t.categories.length) % t.allTags.length];
    reads.add(url({ filters: { category: { $eq: category }, tags: { name: { $eq: tag } } }, sort: SORT }));
  }
  for (let i = 0; reads.size < MIXED_READS && i < 2 * t.documentIds.length; i++) {
    const id = t.documentIds[Math.floor(i / 2)];
    reads.add(i % 2 === 0 ? `/api/articles/${id}` : `/api/articles/${id}?populate=*`);
  }
  return [...reads];
}

/** The deterministic sequence: reads drawn uniformly from `mixedReads`, every WRITE_EVERY-th a write. */
export function mixedSequence(t: Targets, seed = 16): MixedRequest[] {
  const rnd = createRandom(seed);
  const reads = mixedReads(t);
  return Array.from({ length: LENGTH }, (_, i): MixedRequest => {
    if (i % WRITE_EVERY !== WRITE_EVERY - 1) return { method: 'GET', path: rnd.pick(reads) };
    const id = rnd.pick(t.documentIds);
    const data = rnd.next() < 0.5 ? { views: rnd.int(0, 50000) } : { title: `Mixed workload title ${i}` };
    return { method: 'PUT', path: `/api/articles/${id}`, body: JSON.stringify({ data }) };
  });
}

/** The mixed sequence from its start on `o.connections` connections, for `limit`; the first failure to `failed`. */
function mixedRun(
  base: string,
  sequence: MixedRequest[],
  writeToken: string,
  o: LoadOptions,
  limit: { duration: number } | { amount: number },
  failed: (message: string) => void,
) {
  const write = { authorization: `Bearer ${writeToken}`, 'content-type': 'application/json' };
  let next = 0;
  return autocannon({
    url: base,
    ...limit,
    connections: o.connections,
    timeout: 30,
    requests: [
      {
        setupRequest: (req, context) => {
          const r = sequence[next++ % sequence.length];
          context.sent = r;
          return r.method === 'GET'
            ? { ...req, method: 'GET', path: r.path, headers: o.headers, body: undefined }
            : { ...req, method: 'PUT', path: r.path, headers: { ...o.headers, ...write }, body: r.body };
        },
        onResponse: (status, body, context) => {
          const sent = context.sent as MixedRequest;
          if (status >= 300) failed(`${status} to ${sent.method} ${sent.path}: ${String(body).slice(0, 500)}`);
        },
      },
    ],
  });
}

/** Requests of the mixed sequence that prime a server before its mixed workload is measured. */
export const MIXED_PRIME_REQUESTS = 1000;

/**
 * Send the sequence's first MIXED_PRIME_REQUESTS (a hundred writes among them), unmeasured. Every
 * server gets them: the read workloads before the mixed one prime reads only, and a server that
 * did not seed the data (Vellum's warm one) would otherwise meet its first writes measured.
 */
export async function primeMixed(base: string, sequence: MixedRequest[], writeToken: string, o: LoadOptions) {
  await mixedRun(base, sequence, writeToken, o, { amount: MIXED_PRIME_REQUESTS }, () => {});
}

/** Warm up, then measure the sequence for `o.duration` s; writes carry `writeToken`. */
export async function measureMixed(
  base: string,
  sequence: MixedRequest[],
  writeToken: string,
  o: LoadOptions,
  cpu?: CpuSampler | null,
): Promise<MixedMeasurement> {
  let firstFailure: string | undefined;
  const failed = (message: string): void => {
    firstFailure ??= message;
  };
  const run = (seconds: number) => mixedRun(base, sequence, writeToken, o, { duration: seconds }, failed);
  return { ...(await measureRuns(run, o, cpu)), firstFailure };
}

/**
 * Two runs of one server as one figure: the mean of their req/s and medians, the worse p99, every
 * request and failure counted, CPU per request over both. Each server's mixed workload is measured
 * twice (Vellum's two in the order warm, cold, cold, warm): a server's first run after priming was
 * 10-15% under its second whichever server went first, more priming did not change that, and a
 * single run each would hand the difference to whichever was measured second.
 */
export function bothRuns(a: MixedMeasurement, b: MixedMeasurement): MixedMeasurement {
  const requests = a.requests + b.requests;
  const weighted = (f: (c: NonNullable<Measurement['cpu']>) => number): number =>
    a.cpu && b.cpu ? (f(a.cpu) * a.requests + f(b.cpu) * b.requests) / Math.max(1, requests) : 0;
  const statusCodes = { ...a.statusCodes };
  for (const [code, n] of Object.entries(b.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    rps: (a.rps + b.rps) / 2,
    p50: (a.p50 + b.p50) / 2,
    p99: Math.max(a.p99, b.p99),
    requests,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    statusCodes,
    cpu: a.cpu && b.cpu ? { serverMs: weighted((c) => c.serverMs), databaseMs: weighted((c) => c.databaseMs) } : null,
    firstFailure: a.firstFailure ?? b.firstFailure,
  };
}
