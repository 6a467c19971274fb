import { test } from 'node:test';
import assert from 'node:assert/strict';
import { halvingRungs, keepFaster, meanRatio, rungCount, survivorsAfter } from '../../src/runs/tune-schedule.js';

test('rungs halve the candidates until at most two are left for the full rule', () => {
  assert.equal(rungCount(0), 1);
  assert.equal(rungCount(2), 1);
  assert.equal(rungCount(3), 2);
  assert.equal(rungCount(7), 3);
  assert.equal(rungCount(16), 4);
  assert.equal(survivorsAfter(7), 4);
});

test('each rung doubles the last and the last is the full stop rule', () => {
  const full = { stop: { minTimeMs: 8000, minBatches: 16, maxTimeMs: 40000 }, rounds: 4 };
  const rungs = halvingRungs(3, full);
  assert.deepEqual(rungs.map((r) => r.stop.minTimeMs), [2000, 4000, 8000]);
  assert.deepEqual(rungs.map((r) => r.rounds), [1, 2, 4]);
  assert.deepEqual(rungs[2]?.stop, full.stop);
  assert.deepEqual(halvingRungs(1, full)[0]?.stop, full.stop);
  assert.equal(halvingRungs(4, { ...full, rounds: 1 })[0]?.rounds, 1, 'never under one round');
  assert.deepEqual(halvingRungs(3, { ...full, limit: 64 }, 8).map((r) => r.limit), [16, 32, 64], 'rows double too');
  assert.deepEqual(halvingRungs(3, { ...full, limit: 16 }, 8).map((r) => r.limit), [8, 8, 16], 'never under the largest batch');
  assert.equal(halvingRungs(2, full)[0]?.limit, null, 'every row stays every row');
});

test('the faster half goes on; a failed candidate is dropped whatever its speed', () => {
  const scores = new Map([
    ['a', { ratios: [0.5, 0.5] }],
    ['b', { ratios: [2, 2] }],
    ['c', { ratios: [0.9, 1.1] }],
    ['d', { failed: 'parity failed' }],
  ]);
  const { kept, dropped } = keepFaster(scores, 2);
  assert.deepEqual(kept, ['a', 'c']);
  assert.equal(dropped.get('d'), 'parity failed');
  assert.match(dropped.get('b') ?? '', /slower half \(2\.000×/);
  assert.equal(meanRatio([0.5, 2]), 1);
  assert.equal(meanRatio([]), Infinity);
});
