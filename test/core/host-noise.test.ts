import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostNoiseWarnings, parseProcStatCpu, stealShareBetween } from '../../src/core/host-noise.js';

const STAT = (user: number, steal: number) =>
  `cpu  ${user} 0 100 1000 10 0 5 ${steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 123\nctxt 456\n`;

test('the cpu line of /proc/stat gives total and steal ticks, and steal share is their change between readings', () => {
  assert.deepEqual(parseProcStatCpu(STAT(500, 20)), { total: 500 + 100 + 1000 + 10 + 5 + 20, steal: 20 });
  assert.equal(parseProcStatCpu('intr 1\n'), null);
  const share = stealShareBetween(parseProcStatCpu(STAT(500, 20)), parseProcStatCpu(STAT(590, 30)));
  assert.equal(share, 10 / 100);
  assert.equal(stealShareBetween(null, parseProcStatCpu(STAT(1, 1))), null);
  assert.equal(stealShareBetween(parseProcStatCpu(STAT(500, 20)), parseProcStatCpu(STAT(500, 20))), null, 'no time passed: unknown, not zero');
});

test('high load per core or CPU steal around a round becomes a warning naming the round', () => {
  const quiet = { loadPerCore: 0.4, stealShare: 0.01 };
  const warnings = hostNoiseWarnings([
    { index: 0, noise: { before: quiet, after: quiet } },
    { index: 1, noise: { before: { loadPerCore: 1.6, stealShare: null }, after: { loadPerCore: 0.9, stealShare: 0.08 } } },
  ]);
  assert.deepEqual(warnings, ['host busy in round 2: load 1.60 per core (above 1)', 'CPU steal 8.0% during round 2 (above 5%)']);
});
