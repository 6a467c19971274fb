/**
 * The latency goal of a load run (`--slo p99=50ms`, `slo: "p99=50ms"` in
 * the API): which percentile of request latency, and its limit. One parser
 * for the CLI, the API and the library, so each gets the same message.
 */
import type { LatencyGoal } from './load-results.js';
import { UserError } from '../../core/errors.js';

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
  if (!match) throw badGoal(text, trimmed, name, example);
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

/** Units a limit may carry. */
const UNITS = ['ms', 's'];

/**
 * The error for a goal the grammar does not take, naming the part that is
 * wrong: no percentile, a negative limit, an unknown unit (with the units
 * listed), or else the whole shape.
 */
function badGoal(text: string, trimmed: string, name: string, example: string): UserError {
  const fix = `write e.g. ${example} (percentiles: ${GOAL_PERCENTILES.map((p) => `p${p}`).join(', ')}; limit in ${UNITS.join(' or ')})`;
  if (/^-?\d+(?:\.\d+)?\s*[a-zµ]*$/i.test(trimmed)) return new UserError(`${name} ${text} names no percentile: a latency goal is a percentile and its limit`, fix);
  const parts = /^p([^=\s]*)\s*=\s*(.*)$/i.exec(trimmed);
  if (parts) {
    const limit = (parts[2] ?? '').trim();
    const number = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?)\s*(.*)$/i.exec(limit);
    if (!/^\d+(?:\.\d+)?$/.test(parts[1] ?? '')) return new UserError(`${name} percentile "p${parts[1]}" is not a number: use one of ${GOAL_PERCENTILES.map((p) => `p${p}`).join(', ')}`, fix);
    if (limit === '') return new UserError(`${name} ${text} has no limit after "="`, fix);
    if (!number) return new UserError(`${name} limit "${limit}" is not a number with a unit`, fix);
    if (Number(number[1]) < 0) return new UserError(`${name} limit ${limit} is negative: a latency limit must be above 0`, fix);
    const unit = number[2] ?? '';
    if (unit !== '' && !UNITS.includes(unit.toLowerCase())) return new UserError(`${name} limit ${limit} has an unknown unit "${unit}": the units are ${UNITS.join(' and ')}`, fix);
  }
  return new UserError(`${name} must be a percentile and a limit, got "${text}"`, fix);
}
