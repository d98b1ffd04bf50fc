/**
 * Runs `fn` over `items` with at most `limit` calls in flight; the results keep the input order.
 * A call that fails stops the others from taking more items: those under way finish, then the
 * first failure is thrown (nothing goes on in the background once it has settled).
 */
export async function mapLimit<T, R>(options: { items: readonly T[]; limit: number; fn: (item: T) => Promise<R> }): Promise<R[]> {
  const results = new Array<R>(options.items.length);
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (!failures.length && next < options.items.length) {
      const index = next++;
      try {
        results[index] = await options.fn(options.items[index] as T);
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.limit, options.items.length)) }, worker));
  if (failures.length) throw failures[0];
  return results;
}
