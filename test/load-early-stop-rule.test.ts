import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeRequests } from '../src/core/load-summary.js';
import { VirtualClock } from '../src/scenarios/server/clock.js';
import { earlyStopRule, failsEarly } from '../src/scenarios/server/early-stop.js';
import { serveSchedule } from '../src/scenarios/server/serve-loop.js';
import { virtualEngine } from './fixtures/virtual-server.js';

test('early stopping ends a probe once its over-limit count is too high for the goal percentile at 99% confidence, and not before', async () => {
  // p99: P(X ≥ k) for X ~ Binomial(n, 0.01) must fall below 1%.
  assert.equal(failsEarly(1, 1, 99), false, 'one request over of one: P = 1%, not below');
  assert.equal(failsEarly(2, 2, 99), true, 'two of two: P = 0.01%');
  assert.equal(failsEarly(4, 100, 99), false, 'four of 100: P ≈ 1.8%');
  assert.equal(failsEarly(5, 100, 99), true, 'five of 100: P ≈ 0.34%');
  assert.equal(failsEarly(18, 1000, 99), false, '18 of 1,000: P ≈ 1.4%');
  assert.equal(failsEarly(19, 1000, 99), true, '19 of 1,000: P ≈ 0.7%');
  assert.equal(failsEarly(10, 100, 90), false, 'p90: ten of 100 is the goal itself');

  // An engine slower than the limit: the probe ends after two engine calls of a 1,000-request schedule, the
  // requests already waiting longer than the limit counting as over it.
  const clock = new VirtualClock();
  const handler = virtualEngine(clock, { serviceMs: () => 30 });
  const timesMs = Float64Array.from({ length: 1000 }, (_v, i) => i * 10);
  const served = await serveSchedule({
    clock,
    schedule: { timesMs, warmup: 0 },
    batcher: { maxBatch: 1, maxWaitMs: 0 },
    handler,
    drainMs: Infinity,
    stopRule: earlyStopRule({ percentile: 99, limitMs: 20 }),
  });
  assert.equal(handler.calls.length, 2);
  assert.match(served.endedEarly ?? '', /^ended early, failing: 4 of 4 requests over 20 ms/);
  assert.ok(served.samples.scheduledMs.length < 10, `requests that arrived before the stop: ${served.samples.scheduledMs.length}`);
  // A handful of requests cannot tell a growing queue from noise: the stopped probe is "too short", its stop the reason.
  const summary = summarizeRequests(served.samples, { durationMs: 5000, minQueries: 100, maxBatch: 1, slo: { percentile: 99, limitMs: 20 }, endedEarly: served.endedEarly, scheduleComplete: served.scheduleComplete });
  assert.equal(served.scheduleComplete, false);
  assert.equal(summary.verdict.status, 'too short');
  assert.match(summary.verdict.reasons[0] ?? '', /^ended early, failing/);
});
