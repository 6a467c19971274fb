/**
 * Ending a clearly failing probe early, after LoadGen's early-stopping
 * estimator (mlcommons/inference loadgen/early_stopping.cc and results.cc:
 * binomial odds of the over-latency count, 99% confidence, zero tolerance).
 * LoadGen asks whether enough requests met the limit to call a run a
 * success; a peak search also needs the mirror question, whether a probe
 * has already failed, so it can move on instead of serving the rest of a
 * schedule it cannot keep up with.
 *
 * The rule: of the `decided` measured requests so far (completed, plus
 * waiting ones already older than the limit), `over` exceeded the limit.
 * A server whose true share over the limit were exactly 1 − p (a p-th
 * percentile right at the limit) would show `over` or more with
 * probability P(X ≥ over), X ~ Binomial(decided, 1 − p). When that is below
 * 1%, the percentile is over the limit with 99% confidence and the probe
 * ends as failing. For a p99 goal that takes 2 requests over of the first
 * 2, 5 of 100, 19 of 1,000.
 */
import type { LatencyGoal } from './load-results.js';
import { binomialTailAtLeast } from '../../core/statistics.js';
import type { ProbeStopRule } from './serve-loop.js';

/** LoadGen's early-stopping confidence. */
export const EARLY_STOP_CONFIDENCE = 0.99;

/** True when `over` of `decided` requests over the limit show, with 99% confidence, that the `percentile`-th percentile is over it. */
export function failsEarly(over: number, decided: number, percentile: number): boolean {
  if (over === 0 || decided === 0) return false;
  return binomialTailAtLeast(over, decided, 1 - percentile / 100) < 1 - EARLY_STOP_CONFIDENCE;
}

/** The serve loop's stop rule for a latency goal. */
export function earlyStopRule(goal: LatencyGoal): ProbeStopRule {
  return {
    limitMs: goal.limitMs,
    decide: (over, decided) =>
      failsEarly(over, decided, goal.percentile)
        ? `ended early, failing: ${over} of ${decided} requests over ${goal.limitMs} ms, P(≥ ${over} | p${goal.percentile} at the limit) < 1%`
        : null,
  };
}
