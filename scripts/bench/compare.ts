/**
 * Vellum's and the ceiling's answers to the same request, compared once: if they differ,
 * the ceiling is not an honest bound (or Vellum answers something else than it should).
 */

/** The first place two JSON values differ (keys in order included), or null when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (a === b) return null;
  if (
    typeof a !== typeof b ||
    a === null ||
    b === null ||
    typeof a !== 'object' ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${path}: ${show(a)} vs ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.join() !== kb.join()) return `${path}: keys ${ka.join(',')} vs ${kb.join(',')}`;
  for (const k of ka) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
};

/** GET `path` from both servers and compare the parsed bodies; a short verdict for the report. */
export async function compareAnswers(
  vellumUrl: string,
  ceilingUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ equal: boolean; detail: string }> {
  const [v, c] = await Promise.all(
    [vellumUrl, ceilingUrl].map(async (base) => {
      const res = await fetch(base + path, { headers });
      return { status: res.status, text: await res.text() };
    }),
  );
  if (v.status !== 200 || c.status !== 200)
    return { equal: false, detail: `status ${v.status} (Vellum) vs ${c.status} (ceiling)` };
  let diff: string | null;
  try {
    diff = firstDifference(JSON.parse(v.text), JSON.parse(c.text));
  } catch (err) {
    return { equal: false, detail: `not JSON: ${(err as Error).message}` };
  }
  const sizes = `${v.text.length} vs ${c.text.length} bytes`;
  return diff
    ? { equal: false, detail: `differ at ${diff}` }
    : { equal: true, detail: `same JSON (${sizes}; the ceiling's text has json_build_object's spacing)` };
}
