import { test } from 'node:test';
import assert from 'node:assert/strict';
import { betweenRoundsOf } from '../../src/core/statistics.js';

test('the interval across rounds is a Student t interval on the log scale of the round means with rounds − 1 degrees of freedom', () => {
  // Means 10, 12, 11: mean 11, sample stdev 1, t(2) = 4.303, half-width 4.303 / √3.
  const r = betweenRoundsOf([10, 12, 11]);
  assert.equal(r.rounds, 3);
  assert.deepEqual(r.means, [10, 12, 11]);
  assert.equal(r.mean, 11);
  assert.equal(r.stdev, 1);
  assert.ok(r.ci95);
  assert.ok(Math.abs(r.ci95.halfWidth - 4.303 / Math.sqrt(3)) < 1e-12);
  assert.ok(Math.abs(r.ci95.low - 11 * Math.exp(-4.303 / Math.sqrt(3) / 11)) < 1e-12);
  assert.equal(betweenRoundsOf([7]).ci95, null, 'one round has no interval');
});
