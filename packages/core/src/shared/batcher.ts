/** An item waiting in a batch, with the promise its caller holds. */
export interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Items asked for one at a time, written together: `write` takes a batch and settles each of its
 * items. A batch goes when it reaches `size`, or at the next turn of the event loop when none is
 * being written, so a lone item is not held back; items arriving while one batch is written go
 * together once it is done. A `write` that throws rejects every item it left unsettled.
 */
export function createBatcher<T, R>(options: { size: number; write: (batch: Pending<T, R>[]) => Promise<void> }): (item: T) => Promise<R> {
  const { size, write } = options;
  const waiting: Pending<T, R>[] = [];
  let scheduled = false;
  let writing = 0;
  const flush = () => {
    scheduled = false;
    while (waiting.length && (writing === 0 || waiting.length >= size)) {
      const batch = waiting.splice(0, size);
      writing += 1;
      void write(batch)
        .catch((error: unknown) => {
          // Settling a settled promise does nothing: only the items left unsettled reject.
          for (const p of batch) p.reject(error);
        })
        .finally(() => {
          writing -= 1;
          if (waiting.length && !scheduled) schedule();
        });
    }
  };
  const schedule = () => {
    scheduled = true;
    setImmediate(flush);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (waiting.length >= size) flush();
      else if (!scheduled && writing === 0) schedule();
    });
}
