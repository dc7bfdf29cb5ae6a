/**
 * The generations this process knows: one counter per key (a content-type uid), the highest value
 * the database's `vellum_generations` row was seen at (from this process's own commits or from a
 * NOTIFY). `seq` orders changes locally: a read notes it when it starts, and what it read may be
 * kept only if none of its keys changed (and the cache was not cleared) since.
 */
export interface GenerationRecord {
  readonly key: string;
  generation: number;
  /** `seq` when `generation` last changed */
  changedAt: number;
  /** changes, each decayed by e^(-age / HEAT_MS), as of `heatAt` (performance.now()) */
  heat: number;
  heatAt: number;
}

/**
 * How fast a key's changes are forgotten, and how many recent ones make it *hot*: with changes
 * arriving steadily, `heat` settles at their rate per HEAT_MS, so a hot key changes more than
 * HOT_CHANGES times a second. An answer that depends on one is likely to go stale before it is
 * asked for again (response-cache.ts: admission).
 */
export const HEAT_MS = 1000;
export const HOT_CHANGES = 20;

/** `r`'s heat decayed to `now`. */
const heatOf = (r: GenerationRecord, now: number): number => r.heat * Math.exp((r.heatAt - now) / HEAT_MS);

/** Whether `r` changed more than HOT_CHANGES times in about the last second (as of `now`). */
export const isHot = (r: GenerationRecord, now = performance.now()): boolean => heatOf(r, now) > HOT_CHANGES;

export interface Generations {
  /** the record of a key (made at 0 on first use; records live as long as the process) */
  record(key: string): GenerationRecord;
  /** a key's generation is at least `generation` (a commit or a notification told so) */
  apply(key: string, generation: number): void;
  /** the local change counter */
  readonly seq: number;
  /** whether entries may be served: the listener is connected and nothing was missed since */
  readonly live: boolean;
  /** the listener is (re)connected and the generations reloaded (anything older may be stale) */
  resume(): void;
  /** the listener is gone: notifications may be missed from now on */
  suspend(): void;
  /** `seq` at the last resume or suspend: a read that started before may not be kept */
  readonly resetAt: number;
  /**
   * Whether what a read of `keys` that started at `startedAt` (`seq` then) saw may be kept: the
   * app hears every write (live), has heard them since the read started, and none of `keys` was
   * written since (what it read may be older than what is committed)
   */
  keepable(startedAt: number, keys: Iterable<string>): boolean;
  /** hear every key whose generation changes, before the new generation is visible */
  subscribe(listener: (key: string) => void): void;
}

/** In-memory generations, per app (never module state: two apps may run in one process). */
export function createGenerations(): Generations {
  const records = new Map<string, GenerationRecord>();
  const listeners: Array<(key: string) => void> = [];
  let seq = 0;
  let live = false;
  let resetAt = 0;

  const record = (key: string): GenerationRecord => {
    let r = records.get(key);
    if (!r) {
      r = { key, generation: 0, changedAt: 0, heat: 0, heatAt: 0 };
      records.set(key, r);
    }
    return r;
  };

  return {
    record,
    apply(key, generation) {
      const r = record(key);
      if (generation <= r.generation) return;
      // listeners (a grants cache, say) forget first: a read that sees the new generation sees them fresh
      for (const l of listeners) l(key);
      r.generation = generation;
      r.changedAt = ++seq;
      const now = performance.now();
      r.heat = heatOf(r, now) + 1;
      r.heatAt = now;
    },
    get seq() {
      return seq;
    },
    get live() {
      return live;
    },
    get resetAt() {
      return resetAt;
    },
    keepable(startedAt, keys) {
      if (!live || resetAt > startedAt) return false;
      for (const key of keys) if (record(key).changedAt > startedAt) return false;
      return true;
    },
    resume() {
      live = true;
      resetAt = ++seq;
    },
    suspend() {
      live = false;
      resetAt = ++seq;
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}
