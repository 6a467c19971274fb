import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchPeak } from '../../src/scenarios/load/peak-search.js';

test('a peak search a stop cuts short takes no first-fail rate from the cut probe: only whole probes bound the peak', async () => {
  const controller = new AbortController();
  const tried: number[] = [];
  const result = await searchPeak(
    async (rate) => {
      tried.push(rate);
      if (rate < 800) return true;
      // SIGTERM arrives while the 800 req/s probe runs: it ends early and says nothing about 800 req/s.
      controller.abort();
      return null;
    },
    { startRps: 100, minRps: 1, maxRps: 100_000, relativePrecision: 0.05, maxProbes: 16, known: [], signal: controller.signal },
  );
  assert.deepEqual(tried, [100, 200, 400, 800]);
  assert.equal(result.lastPass, 400);
  assert.equal(result.firstFail, null, 'the cut 800 req/s probe is not the first failing rate');
  assert.equal(result.interrupted, true);
});
