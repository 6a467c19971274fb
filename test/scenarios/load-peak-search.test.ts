import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchPeak } from '../../src/scenarios/load/peak-search.js';

test('the peak search brackets by doubling, then bisects to 5% between the last passing and the first failing rate', async () => {
  const tried: [number, string][] = [];
  const result = await searchPeak(
    async (rate, purpose) => {
      tried.push([rate, purpose]);
      return rate <= 437;
    },
    { startRps: 50, minRps: 1, maxRps: 100_000, relativePrecision: 0.05, maxProbes: 16, known: [] },
  );
  assert.deepEqual(tried.slice(0, 5), [[50, 'bracket'], [100, 'bracket'], [200, 'bracket'], [400, 'bracket'], [800, 'bracket']]);
  assert.ok(tried.slice(5).every(([, purpose]) => purpose === 'bisect'));
  assert.ok(result.lastPass !== null && result.firstFail !== null);
  assert.ok(result.lastPass <= 437 && result.firstFail > 437, `interval ${result.lastPass}–${result.firstFail}`);
  assert.ok((result.firstFail - result.lastPass) / result.lastPass <= 0.05);
  assert.equal(result.probes, tried.length);
});

test('the peak search starts from the rates already measured and halves down from a failing one', async () => {
  const tried: number[] = [];
  const result = await searchPeak(
    async (rate) => {
      tried.push(rate);
      return rate <= 30;
    },
    { startRps: 500, minRps: 1, maxRps: 100_000, relativePrecision: 0.05, maxProbes: 16, known: [{ rateRps: 100, passed: false }, { rateRps: 200, passed: false }] },
  );
  assert.deepEqual(tried.slice(0, 2), [50, 25], 'halves from the lowest failing rate given');
  assert.ok(result.lastPass !== null && result.lastPass <= 30 && (result.firstFail ?? 0) > 30);
});
