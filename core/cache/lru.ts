/**
 * A least-recently-used map bounded by bytes, on Map insertion order: a read moves its entry to
 * the end, an insertion past the budget drops entries from the front. `size` of an entry is the
 * caller's estimate of the memory it holds.
 */
export interface ByteLru<V> {
  get(key: string): V | undefined;
  /** store; false when the entry alone is over `maxEntryBytes` (nothing stored, an older one removed) */
  set(key: string, value: V, size: number): boolean;
  delete(key: string): void;
  clear(): void;
  readonly bytes: number;
  readonly count: number;
}

/** A byte-bounded LRU: at most `maxBytes` in all, no entry over `maxEntryBytes`. */
export function createByteLru<V>(maxBytes: number, maxEntryBytes = maxBytes): ByteLru<V> {
  const map = new Map<string, { value: V; size: number }>();
  let bytes = 0;

  function remove(key: string): void {
    const old = map.get(key);
    if (!old) return;
    map.delete(key);
    bytes -= old.size;
  }

  return {
    get(key) {
      const e = map.get(key);
      if (!e) return undefined;
      // most recently used goes last; the first entries are the next to go
      map.delete(key);
      map.set(key, e);
      return e.value;
    },
    set(key, value, size) {
      remove(key);
      if (size > maxEntryBytes || size > maxBytes) return false;
      map.set(key, { value, size });
      bytes += size;
      for (const [k] of map) {
        if (bytes <= maxBytes) break;
        remove(k);
      }
      return true;
    },
    delete: remove,
    clear() {
      map.clear();
      bytes = 0;
    },
    get bytes() {
      return bytes;
    },
    get count() {
      return map.size;
    },
  };
}
