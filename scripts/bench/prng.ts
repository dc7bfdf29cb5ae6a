/** A seeded pseudo-random source: the same seed gives the same dataset on every run. */
export interface Random {
  /** a float in [0, 1) */
  next(): number;
  /** an integer in [lo, hi] */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  /** n distinct items, in the order drawn */
  pickN<T>(items: readonly T[], n: number): T[];
}

/** mulberry32, the generator seed.mjs uses, so equal seeds draw equal sequences. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)],
    pickN(items, n) {
      const copy = items.slice();
      const out: (typeof copy)[number][] = [];
      while (out.length < n && copy.length) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
      return out;
    },
  };
}
