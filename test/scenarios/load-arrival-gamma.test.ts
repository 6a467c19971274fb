import assert from 'node:assert/strict';
import { test } from 'node:test';
import { computeStatistics } from '../../src/core/statistics.js';
import { drawSchedule } from '../../src/scenarios/load/arrival-schedule.js';

/** Gaps of a 50,000-arrival schedule at 100 requests/s. */
function gaps(arrival: 'poisson' | 'constant' | 'gamma', burstiness: number, seed = 7): number[] {
  const { timesMs } = drawSchedule({ arrival, burstiness, seed, round: 0, rateRps: 100, warmupMs: 0, durationMs: 0, minQueries: 50_000 });
  return Array.from(timesMs.subarray(1), (t, i) => t - (timesMs[i] as number));
}

test("arrival gaps follow vLLM's definition: mean 1/rate at any burstiness, CV 1/√burstiness (gamma), 1 (Poisson), 0 (constant); a seed replays exactly", () => {
  for (const [arrival, burstiness, cv] of [['poisson', 1, 1], ['constant', 1, 0], ['gamma', 0.25, 2], ['gamma', 4, 0.5]] as const) {
    const s = computeStatistics(gaps(arrival, burstiness));
    assert.ok(Math.abs(s.mean / 10 - 1) < 0.02, `${arrival} ${burstiness}: mean gap ${s.mean} ms, expected 10`);
    assert.ok(Math.abs(s.cv - cv) < 0.03 * Math.max(cv, 1), `${arrival} ${burstiness}: CV ${s.cv}, expected ${cv}`);
  }
  assert.deepEqual(gaps('gamma', 0.5, 3), gaps('gamma', 0.5, 3));
  assert.notDeepEqual(gaps('gamma', 0.5, 3).slice(0, 10), gaps('gamma', 0.5, 4).slice(0, 10));
});
