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

/** Runs calls with at most `limit` of them in flight; the others wait their turn, first come first served. */
export interface Limit {
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Calls in flight now. */
  readonly active: number;
}

export function createLimit(limit: number): Limit {
  const max = Math.max(1, limit);
  const queue: (() => void)[] = [];
  let active = 0;
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    get active() {
      return active;
    },
    async run(fn) {
      // A slot is handed over on release without ever falling free, so a newcomer cannot jump the queue.
      if (active < max) active += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
