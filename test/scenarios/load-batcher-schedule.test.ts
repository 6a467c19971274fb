import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../src/scenarios/load/clock.js';
import { serveSchedule } from '../../src/scenarios/load/serve-loop.js';
import { virtualEngine } from '../helpers/virtual-server.js';

/** Serves arrivals given by hand through a batcher of at most 2 requests waiting at most 5 ms, 4 ms per engine call. */
async function serve(arrivals: readonly number[]) {
  const clock = new VirtualClock();
  const handler = virtualEngine(clock, { serviceMs: () => 4 });
  const served = await serveSchedule({ clock, schedule: { timesMs: Float64Array.from(arrivals), warmup: 0 }, batcher: { maxBatch: 2, maxWaitMs: 5 }, handler, drainMs: Infinity });
  return { calls: handler.calls, s: served.samples };
}

test('the batcher forms the batches --max-batch 2 --max-wait 5 imply on a hand-checked schedule', async () => {
  // 0: r0 waits (deadline 5); 1: r1 fills the batch → [r0 r1] at 1, done 5.
  // 5: r2 (arrived 2) waits until its deadline 7 → [r2] at 7, done 11.
  // 11: r3 (10) and r4 (11) are waiting → [r3 r4] at 11, done 15.
  // 30: r5 alone waits its full 5 ms → [r5] at 35, done 39.
  const { calls, s } = await serve([0, 1, 2, 10, 11, 30]);
  assert.deepEqual(calls, [{ startedAt: 1, size: 2 }, { startedAt: 7, size: 1 }, { startedAt: 11, size: 2 }, { startedAt: 35, size: 1 }]);
  assert.deepEqual(s.queueMs, [1, 0, 5, 1, 0, 5]);
  assert.deepEqual(s.latencyMs, [5, 4, 9, 5, 4, 9]);
  assert.deepEqual(s.batchSize, [2, 2, 1, 2, 2, 1]);
});

test('requests that pile up behind a busy engine go in arrival order, at most --max-batch per call', async () => {
  // 0.5: [r0 r1], done 4.5; then r2..r4 are waiting: [r2 r3] at 4.5, done 8.5; r4 is past its deadline → [r4] at 8.5.
  const { calls, s } = await serve([0, 0.5, 0.6, 0.7, 0.8]);
  assert.deepEqual(calls, [{ startedAt: 0.5, size: 2 }, { startedAt: 4.5, size: 2 }, { startedAt: 8.5, size: 1 }]);
  assert.deepEqual(s.batchId, [0, 0, 1, 1, 2]);
});
