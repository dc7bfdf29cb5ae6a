/**
 * Run `fn` over `items` with at most `limit` calls in flight; results keep the input order. For
 * work that must not take every connection of a pool at once (a GraphQL request's root fields),
 * or that would leave a server idle one call at a time (the bench's seeding).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
