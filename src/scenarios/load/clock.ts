/**
 * The clock the server scenario runs on, injected so the scheduler and the
 * batcher are pure units: tests drive them on a virtual clock with a mock
 * engine of known service time, runs use the real one. Times are ms.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface Clock {
  now(): number;
  /**
   * Resolves at `t` or as soon after as the clock can; at once when `t` has
   * passed. A clock that never waits (the virtual one) returns nothing: the
   * serve loop then runs on without an await, which costs a promise per
   * request for no turn of the event loop.
   */
  sleepUntil(t: number): Promise<void> | void;
}

/**
 * Virtual time: `sleepUntil` jumps to its target, and time moves only when
 * something sleeps or calls `advance` (a mock engine's blocking call).
 * Deterministic and as fast as the code under test.
 */
export class VirtualClock implements Clock {
  private t: number;

  constructor(start = 0) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleepUntil(t: number): void {
    if (t > this.t) this.t = t;
  }

  /** Moves time on by `ms` without yielding, as a call that blocks the event loop does. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`a clock cannot go back: advance(${ms})`);
    this.t += ms;
  }
}

/**
 * Below this many ms to go, `RealClock.sleepUntil` yields turn by turn
 * (setImmediate) instead of setting a timer: Node's timers have 1 ms
 * granularity and often fire a millisecond late, which at 2,000 requests/s
 * is two requests' worth. Each turn still lets I/O through.
 */
export const SPIN_MS = 1.5;

/** performance.now(), with a timer for the long part of a wait and event-loop turns for the last SPIN_MS. */
export class RealClock implements Clock {
  now(): number {
    return performance.now();
  }

  async sleepUntil(t: number): Promise<void> {
    const ahead = t - performance.now();
    if (ahead <= 0) return;
    if (ahead > SPIN_MS) await new Promise<void>((resolve) => setTimeout(resolve, ahead - SPIN_MS));
    while (performance.now() < t) await nextTurn();
  }
}
