/**
 * A copy of a call's params for its middleware to rewrite: plain objects and arrays are copied
 * at every depth; anything else (a Date, a Buffer, a class instance, a function a caller put
 * in `data`) is the caller's own value, kept as is. `structuredClone` would turn a Buffer into
 * a Uint8Array and an instance into a plain object, and throw on a function. Shared references
 * and cycles stay shared and cyclic in the copy.
 */
export function copyParams<T>(params: T): T {
  return copy(params, new Map()) as T;
}

function copy(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copy(item, seen));
    return out;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = Object.create(proto);
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], seen);
    // an own `__proto__` key stays a key: assigning it would set the copy's prototype instead
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = item;
    }
  }
  return out;
}
