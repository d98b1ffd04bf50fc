/**
 * Counts the event loop's turns while work runs: a loop of immediates stands for other
 * requests waiting to be served. A reading that did not grow across a step means the step
 * held the event loop the whole time.
 */
export function countEventLoopTurns(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setImmediate(spin);
  };
  setImmediate(spin);
  return {
    get turns() {
      return turns;
    },
    stop() {
      spinning = false;
    },
  };
}
