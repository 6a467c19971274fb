import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatDuration, formatRate, formatRatio } from '../../src/core/units.js';

test('durations given in ms scale to ns, µs, ms and s with three significant digits', () => {
  assert.equal(formatDuration(0.000812), '812 ns');
  assert.equal(formatDuration(0.0124), '12.4 µs');
  assert.equal(formatDuration(3.2149), '3.21 ms');
  assert.equal(formatDuration(1520), '1.52 s');
  assert.equal(formatDuration(96.1), '96.1 ms');
  assert.equal(formatDuration(0.9996), '1.00 ms', 'rounding up to 1000 moves to the next unit');
  assert.equal(formatDuration(0), '0 ms');
  assert.equal(formatDuration(Number.NaN), 'n/a');
});

test('bytes use 1024-based units labelled KiB, MiB, GiB', () => {
  assert.equal(formatBytes(812), '812 B');
  assert.equal(formatBytes(1536), '1.50 KiB');
  assert.equal(formatBytes(44_739_242), '42.7 MiB');
  assert.equal(formatBytes(67_430_000_000), '62.8 GiB');
  assert.equal(formatBytes(1024 * 1024 - 1), '1.00 MiB');
});

test('rates use SI prefixes and ratios keep one decimal', () => {
  assert.equal(formatRate(1234), '1.23k/s');
  assert.equal(formatRate(812), '812/s');
  assert.equal(formatRate(34.56), '34.6/s');
  assert.equal(formatRate(0.5), '0.500/s');
  assert.equal(formatRate(2_500_000), '2.50M/s');
  assert.equal(formatRatio(3.1), '3.1×');
  assert.equal(formatRatio(12), '12.0×');
});

test('intervals share one unit; percentages and small differences stay readable', async () => {
  const { formatDifference, formatDurationRange, formatPercent } = await import('../../src/core/units.js');
  assert.equal(formatDurationRange(9.531, 9.672), '9.53 – 9.67 ms');
  assert.equal(formatDurationRange(96.9, 127.2), '96.9 – 127 ms');
  assert.equal(formatDurationRange(0.8, 1.2), '0.800 – 1.20 ms');
  assert.equal(formatDurationRange(950, 1050), '0.950 – 1.05 s');
  assert.equal(formatPercent(0.0328), '3.28%');
  assert.equal(formatPercent(1), '100%');
  assert.equal(formatDifference(0), '0');
  assert.equal(formatDifference(2.4e-6), '2.4e-6');
  assert.equal(formatDifference(0.0312), '0.0312');
});
