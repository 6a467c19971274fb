import { kernelPeakRssBytes, resetKernelPeakRss } from '../../core/kernel-peak-rss.js';

/** Default longest age of a per-token peak-RSS reading. */
export const DEFAULT_RSS_MAX_AGE_MS = 2;

/** Where a peak-RSS figure counts from: the last reset (Linux), or the start of the process. */
export type PeakRssScope = 'since-reset' | 'process';

/**
 * Peak RSS of the process at each generated token, at a bounded cost.
 *
 * The kernel keeps the exact high-water mark (getrusage maxrss), so no peak
 * is ever missed; what costs is reading and resetting it. Measured on a busy
 * 2-core machine with the default decoder (a token every ~0.4 ms, a call of
 * ~15 ms CPU): reading it at every token added ~3 % to a generate() call, a
 * worker thread reading it every 2 ms ~5 % (its wake-ups compete with the
 * engine for cores), and resetting it before every call (/proc/self/clear_refs)
 * ~1.5 % of CPU time. So it is reset only when asked (`reset()`, outside
 * timed calls: once per wrapper, once per sweep cell) and read at most once
 * per `maxAgeMs` of generation: tokens slower than that (any real LLM) get a
 * fresh reading each, faster ones share one at most `maxAgeMs` old, and
 * `read()` gives the exact value when a call returns.
 */
export class PeakRssWatcher {
  private last = 0;
  private lastAt = Number.NEGATIVE_INFINITY;
  private resetWorked: boolean | undefined;

  constructor(private readonly maxAgeMs = DEFAULT_RSS_MAX_AGE_MS) {}

  /**
   * Resets the kernel's high-water mark to the current RSS (Linux
   * `/proc/self/clear_refs` 5), so later peaks count from now. Returns the
   * scope later readings have.
   */
  reset(): PeakRssScope {
    if (resetKernelPeakRss()) this.resetWorked = true;
    else this.resetWorked ??= false;
    this.lastAt = Number.NEGATIVE_INFINITY;
    return this.scope();
  }

  /** Scope of the readings: 'since-reset' once a reset has worked. */
  scope(): PeakRssScope {
    return this.resetWorked === true ? 'since-reset' : 'process';
  }

  /** Peak RSS in bytes as of at most `maxAgeMs` before `now` (a `performance.now()` value). */
  at(now: number): number {
    if (now - this.lastAt >= this.maxAgeMs) {
      this.last = kernelPeakRssBytes();
      this.lastAt = now;
    }
    return this.last;
  }

  /** The exact peak now. */
  read(): number {
    this.last = kernelPeakRssBytes();
    this.lastAt = performance.now();
    return this.last;
  }
}
