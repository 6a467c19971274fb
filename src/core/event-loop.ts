/**
 * A turn of the event loop between units of work (a training step, a
 * batch). An engine call that computes synchronously and returns a
 * resolved promise never lets the loop run: `await` alone only drains
 * microtasks, so a Ctrl-C relayed to a child over IPC, a signal handler or
 * the parent lifeline waited until the whole loop had finished. Called
 * outside any timed region.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
