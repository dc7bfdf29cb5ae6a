export type PlainObject = Record<string, unknown>;

export const isPlainObject = (v: unknown): v is PlainObject =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Merge `over` into a copy of `base`: objects merge recursively, everything else replaces. */
export function deepMerge(base: PlainObject, over: PlainObject): PlainObject {
  const out: PlainObject = { ...base };
  for (const [key, value] of Object.entries(over)) {
    // config files are code we trust, but never let a key rewrite a prototype
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}
