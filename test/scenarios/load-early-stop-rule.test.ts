import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeRequests } from '../../src/scenarios/load/load-summary.js';
import { VirtualClock } from '../../src/scenarios/load/clock.js';
import { earlyStopRule, failsEarly } from '../../src/scenarios/load/early-stop.js';
import { serveSchedule } from '../../src/scenarios/load/serve-loop.js';
import { virtualEngine } from '../helpers/virtual-server.js';

/** An engine slower (30 ms) than a p99 ≤ 20 ms goal, fed 1,000 arrivals `gapMs` apart. */
async function hopeless(gapMs: number) {
  const clock = new VirtualClock();
  const handler = virtualEngine(clock, { serviceMs: () => 30 });
  const goal = { percentile: 99, limitMs: 20 };
  const served = await serveSchedule({
    clock,
    schedule: { timesMs: Float64Array.from({ length: 1000 }, (_v, i) => i * gapMs), warmup: 0 },
    batcher: { maxBatch: 1, maxWaitMs: 0 },
    handler,
    drainMs: Infinity,
    stopRule: earlyStopRule(goal),
  });
  const summary = summarizeRequests(served.samples, { durationMs: 5000, minQueries: 100, maxBatch: 1, slo: goal, endedEarly: served.endedEarly, scheduleComplete: served.scheduleComplete });
  return { calls: handler.calls.length, served, summary };
}

test('early stopping ends a probe once its over-limit count is too high for the goal percentile at 99% confidence, and not before', async () => {
  // p99: P(X ≥ k) for X ~ Binomial(n, 0.01) must fall below 1%.
  assert.equal(failsEarly(1, 1, 99), false, 'one request over of one: P = 1%, not below');
  assert.equal(failsEarly(2, 2, 99), true, 'two of two: P = 0.01%');
  assert.equal(failsEarly(4, 100, 99), false, 'four of 100: P ≈ 1.8%');
  assert.equal(failsEarly(5, 100, 99), true, 'five of 100: P ≈ 0.34%');
  assert.equal(failsEarly(18, 1000, 99), false, '18 of 1,000: P ≈ 1.4%');
  assert.equal(failsEarly(19, 1000, 99), true, '19 of 1,000: P ≈ 0.7%');
  assert.equal(failsEarly(10, 100, 90), false, 'p90: ten of 100 is the goal itself');

  // Keeping up (a request every 100 ms) but over the limit: two calls, two requests over, stopped. A
  // handful of requests cannot tell a lagging rate from noise, so the probe is "too short", its stop the reason.
  const calm = await hopeless(100);
  assert.equal(calm.calls, 2);
  assert.match(calm.served.endedEarly ?? '', /^ended early, failing: 2 of 2 requests over 20 ms/);
  assert.equal(calm.served.scheduleComplete, false);
  assert.equal(calm.summary.verdict.status, 'too short');
  assert.match(calm.summary.verdict.reasons[0] ?? '', /^ended early, failing/);

  // Falling behind (a request every 10 ms): requests already waiting longer than the limit count as over
  // it, so it stops after two calls too, with most of what arrived still waiting: overloaded.
  const behind = await hopeless(10);
  assert.equal(behind.calls, 2);
  assert.match(behind.served.endedEarly ?? '', /^ended early, failing: 4 of 4 requests over 20 ms/);
  assert.equal(behind.summary.verdict.status, 'overloaded');
  assert.match(behind.summary.verdict.reasons[0] ?? '', /^5 of the 7 measured requests were still waiting when the probe stopped/);
});
