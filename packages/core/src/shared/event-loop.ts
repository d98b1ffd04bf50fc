/**
 * Lets the event loop run what is waiting (other requests, timers, I/O) before the caller
 * goes on. Long work on the request path is done in slices with this between them: the
 * embedded database (PGlite) runs each statement on this thread, so one statement over a
 * whole upload stopped every other request until it was done.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `items` in consecutive slices of `size` (the first of `firstSize`, default `size`), taken one at a time. */
export function* slicesOf<T>(items: readonly T[], size: number, firstSize = size): Generator<T[]> {
  let start = 0;
  for (let take = firstSize; start < items.length; take = size) {
    yield items.slice(start, start + take);
    start += take;
  }
}

/** Runs `fn` over `items` in slices of `size`, in order, yielding to the event loop between slices. */
export async function inSlices<T>(items: readonly T[], size: number, fn: (slice: T[], start: number) => Promise<void> | void): Promise<void> {
  let start = 0;
  for (const slice of slicesOf(items, size)) {
    if (start) await yieldToEventLoop();
    await fn(slice, start);
    start += slice.length;
  }
}
