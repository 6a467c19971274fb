import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isSteady, stopDecision, verdictOf, warmupDone, DEFAULT_STOP_RULE, DEFAULT_WARMUP_RULE } from '../src/core/stop-rule.js';
import { computeStatistics } from '../src/core/statistics.js';

test('the stop rule needs a full pass and both minimums, and stops at a maximum', () => {
  const rule = { minTimeMs: 2000, minBatches: 20, maxTimeMs: 10_000, maxBatches: 1000 };
  assert.equal(stopDecision({ elapsedMs: 5000, batches: 50, passComplete: false }, rule), 'continue');
  assert.equal(stopDecision({ elapsedMs: 5000, batches: 50, passComplete: true }, rule), 'done');
  assert.equal(stopDecision({ elapsedMs: 1999, batches: 50, passComplete: true }, rule), 'continue');
  assert.equal(stopDecision({ elapsedMs: 3000, batches: 19, passComplete: true }, rule), 'continue');
  assert.equal(stopDecision({ elapsedMs: 10_000, batches: 5, passComplete: false }, rule), 'max');
  assert.equal(stopDecision({ elapsedMs: 100, batches: 1000, passComplete: false }, rule), 'max');
  assert.deepEqual([DEFAULT_STOP_RULE.minTimeMs, DEFAULT_STOP_RULE.minBatches], [2000, 20]);
});

test('warmup ends when the last batches are steady, or at its cap', () => {
  assert.equal(isSteady([10, 5, 5.1, 5.2], { window: 3, tolerance: 0.1 }), true);
  assert.equal(isSteady([10, 5, 9, 5.2], { window: 3, tolerance: 0.1 }), false);
  const rule = { ...DEFAULT_WARMUP_RULE, minBatches: 2, maxBatches: 5 };
  assert.deepEqual(warmupDone([9, 5, 5, 5], 10, rule), { done: true, steady: true });
  assert.deepEqual(warmupDone([9, 5, 5], 10, rule), { done: false, steady: false });
  assert.deepEqual(warmupDone([5], 10, rule), { done: false, steady: false });
  assert.deepEqual(warmupDone([9, 1, 5, 2, 8], 10, rule), { done: true, steady: false });
});

test('the verdict is NOISY with every reason when the figures cannot be trusted', () => {
  const steady = computeStatistics(Array.from({ length: 30 }, () => 10));
  const rule = { ...DEFAULT_STOP_RULE };
  assert.deepEqual(verdictOf(steady, { stoppedAtMax: false, warmupSteady: true, rule, maxCv: 0.2 }), { status: 'VALID', reasons: [] });
  const noisy = computeStatistics([1, 10, 1, 10, 1]);
  const v = verdictOf(noisy, { stoppedAtMax: true, warmupSteady: false, rule, maxCv: 0.2 });
  assert.equal(v.status, 'NOISY');
  assert.equal(v.reasons.length, 5, v.reasons.join('; '));
  assert.match(v.reasons.join('; '), /95% CI of the mean ±\d+\.\d% above ±5%/);
  assert.match(v.reasons.join('; '), /only 5 batches \(minimum 20\)/);
  assert.match(v.reasons.join('; '), /CV \d+\.\d% above 20%/);
});
