import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatistics, percentileOfSorted, tCritical95, throughput } from '../../src/core/statistics.js';

test('statistics match hand-worked values (type 7 percentiles, n-1 stdev)', () => {
  // samples 1..10: mean 5.5; sample variance = sum((x-5.5)^2)/9 = 82.5/9
  const s = computeStatistics([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]);
  assert.equal(s.count, 10);
  assert.equal(s.mean, 5.5);
  assert.equal(s.min, 1);
  assert.equal(s.max, 10);
  assert.ok(Math.abs(s.stdev - Math.sqrt(82.5 / 9)) < 1e-12);
  // h = 9 * 0.5 = 4.5 -> 5 + 0.5 * (6 - 5) = 5.5
  assert.equal(s.p50, 5.5);
  // h = 9 * 0.9 = 8.1 -> 9 + 0.1 * (10 - 9) = 9.1
  assert.ok(Math.abs(s.p90 - 9.1) < 1e-12);
  // h = 9 * 0.99 = 8.91 -> 9.91
  assert.ok(Math.abs(s.p99 - 9.91) < 1e-12);
  assert.equal(s.total, 55);
});

test('a single sample has zero spread and every percentile equal to it', () => {
  const s = computeStatistics([3]);
  assert.equal(s.stdev, 0);
  assert.equal(s.p50, 3);
  assert.equal(s.p99, 3);
});

test('empty samples are refused rather than reported as zeros', () => {
  assert.throws(() => computeStatistics([]), /empty/);
  assert.throws(() => percentileOfSorted([1], 101), /outside/);
});

test('throughput is items per second of engine time', () => {
  assert.equal(throughput(64, 500), 128);
  assert.equal(throughput(10, 0), 0);
});

test('p95, coefficient of variation and the Student-t 95% interval match hand-worked values', () => {
  const s = computeStatistics([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]);
  // h = 9 * 0.95 = 8.55 -> 9 + 0.55 = 9.55
  assert.ok(Math.abs(s.p95 - 9.55) < 1e-12);
  const sd = Math.sqrt(82.5 / 9);
  assert.ok(Math.abs(s.cv - sd / 5.5) < 1e-12);
  // t(0.975, 9) = 2.262; half width = 2.262 * sd / sqrt(10)
  const half = (2.262 * sd) / Math.sqrt(10);
  assert.ok(s.ci95 !== null);
  assert.ok(Math.abs(s.ci95.halfWidth - half) < 1e-12);
  // On the log scale: 5.5 × exp(∓half / 5.5).
  assert.ok(Math.abs(s.ci95.low - 5.5 * Math.exp(-half / 5.5)) < 1e-12);
  assert.ok(Math.abs(s.ci95.high - 5.5 * Math.exp(half / 5.5)) < 1e-12);
  assert.equal(computeStatistics([4]).ci95, null);
});

test('t critical values follow the table and converge to 1.96', () => {
  assert.equal(tCritical95(1), 12.706);
  assert.equal(tCritical95(30), 2.042);
  assert.equal(tCritical95(60), 2.0);
  assert.ok(tCritical95(45) < 2.021 && tCritical95(45) > 2.0);
  assert.ok(Math.abs(tCritical95(1e9) - 1.96) < 1e-6);
});
