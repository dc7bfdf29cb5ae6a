import { describe, expect, it } from 'vitest';
import { bothRuns, type MixedMeasurement } from '../../../scripts/bench/mixed.ts';

/** A first run, and a second that differs in every figure. */
const a: MixedMeasurement = {
  rps: 900,
  p50: 6,
  p99: 40,
  requests: 4500,
  non2xx: 0,
  errors: 0,
  statusCodes: { 200: 4500 },
  cpu: { serverMs: 0.9, databaseMs: 0.7 },
};
const b: MixedMeasurement = {
  ...a,
  rps: 1100,
  p50: 4,
  p99: 30,
  requests: 5500,
  non2xx: 2,
  statusCodes: { 200: 5498, 409: 2 },
  cpu: { serverMs: 0.7, databaseMs: 0.6 },
  firstFailure: '409 to PUT /api/articles/x',
};

describe("the mixed workload's two runs as one figure", () => {
  it('averages the rates and medians, keeps the worse p99, counts every request, weighs CPU by requests', () => {
    const both = bothRuns(a, b);
    expect(both).toMatchObject({ rps: 1000, p50: 5, p99: 40, requests: 10000, non2xx: 2, errors: 0 });
    expect(both.statusCodes).toEqual({ 200: 9998, 409: 2 });
    expect(both.cpu?.serverMs).toBeCloseTo((0.9 * 4500 + 0.7 * 5500) / 10000, 10);
    expect(both.cpu?.databaseMs).toBeCloseTo((0.7 * 4500 + 0.6 * 5500) / 10000, 10);
    expect(both.firstFailure).toBe('409 to PUT /api/articles/x');
  });

  it('has no CPU figure unless both runs were sampled, and the first failure is the first run’s', () => {
    expect(bothRuns({ ...a, cpu: null }, b).cpu).toBeNull();
    expect(bothRuns({ ...a, firstFailure: 'first' }, { ...b, firstFailure: 'second' }).firstFailure).toBe('first');
  });
});
