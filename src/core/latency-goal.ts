/**
 * The latency goal of a load run (`--slo p99=50ms`, `slo: "p99=50ms"` in
 * the API): which percentile of request latency, and its limit. One parser
 * for the CLI, the API and the library, so each gets the same message.
 */
import type { LatencyGoal } from './load-results.js';
import { UserError } from './errors.js';

/** Percentiles a goal may name: the ones every report prints. */
export const GOAL_PERCENTILES: readonly number[] = [50, 90, 95, 99, 99.9];

/** Largest limit accepted: an hour, so a typo cannot make a goal that every rate meets. */
const MAX_LIMIT_MS = 3_600_000;

/** `p99=50ms`, as the flag is written. */
export function goalText(goal: LatencyGoal): string {
  return `p${goal.percentile}=${goal.limitMs}ms`;
}

/**
 * Reads `pNN=LIMIT` with LIMIT in ms (`50ms`, `50`) or seconds (`0.05s`).
 * `name` is how the user set it (`--slo` or `slo`), for the message.
 */
export function parseLatencyGoal(text: string, name = '--slo'): LatencyGoal {
  const example = `${name} p99=50ms`;
  const trimmed = text.trim();
  const match = /^p(\d+(?:\.\d+)?)\s*=\s*(\d+(?:\.\d+)?)\s*(ms|s)?$/i.exec(trimmed);
  if (!match) {
    const noPercentile = /^\d+(?:\.\d+)?\s*(ms|s)?$/i.test(trimmed);
    throw new UserError(
      noPercentile ? `${name} ${text} names no percentile: a latency goal is a percentile and its limit` : `${name} must be a percentile and a limit, got "${text}"`,
      `write e.g. ${example} (percentiles: ${GOAL_PERCENTILES.map((p) => `p${p}`).join(', ')}; limit in ms or s)`,
    );
  }
  const percentile = Number(match[1]);
  if (!GOAL_PERCENTILES.includes(percentile)) {
    throw new UserError(`${name} percentile p${match[1]} is not one of ${GOAL_PERCENTILES.map((p) => `p${p}`).join(', ')}`, `write e.g. ${example}`);
  }
  const limitMs = Number(match[2]) * ((match[3] ?? 'ms').toLowerCase() === 's' ? 1000 : 1);
  if (!(limitMs > 0 && limitMs <= MAX_LIMIT_MS)) {
    throw new UserError(`${name} limit must be above 0 and at most 3600 s, got ${match[2]}${match[3] ?? ''}`, `write e.g. ${example}`);
  }
  return { percentile, limitMs };
}
