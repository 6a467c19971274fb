import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GROUP_STEPS, timedCall } from '../../engines/browser/page/page-common.js';

/** A clock that only moves when a call runs: each call takes `callMs`, read in whole steps of `step` as a coarse browser clock would. */
function fakeClock(callMs: number, step: number) {
  let t = 0;
  let calls = 0;
  return {
    now: () => Math.floor(t / step) * step,
    call: async () => {
      t += callMs;
      return ++calls;
    },
    calls: () => calls,
  };
}

test('a call of at least 20 timer steps is timed alone', async () => {
  const clock = fakeClock(5, 0.02);
  const r = await timedCall(clock.call, 0.02, clock.now);
  assert.equal(r.group, 1);
  assert.equal(clock.calls(), 1);
  assert.ok(Math.abs(r.ms - 5) < 1e-9);
});

test('a call shorter than 20 timer steps is timed again as a group and divided, and says how many calls it stands for', async () => {
  // 0.3 ms calls on a 1 ms clock (Firefox without cross-origin isolation): one call alone reads 0 or 1 ms.
  const clock = fakeClock(0.3, 1);
  const r = await timedCall(clock.call, 1, clock.now);
  assert.ok(r.group > 1);
  assert.ok(r.group * 0.3 >= GROUP_STEPS - 1, `the group spans about ${GROUP_STEPS} steps: ${r.group} calls`);
  assert.equal(clock.calls(), 1 + r.group, 'the lone first call is not counted in the figure');
  assert.ok(Math.abs(r.ms - 0.3) <= 1 / r.group, `divided figure ${r.ms} within one step per group of the true 0.3 ms`);
  assert.equal(r.result, 1 + r.group, 'the outputs are the last call\'s');
});

test('a clock whose step is unknown times every call alone', async () => {
  const clock = fakeClock(0.001, 1);
  assert.equal((await timedCall(clock.call, 0, clock.now)).group, 1);
});
