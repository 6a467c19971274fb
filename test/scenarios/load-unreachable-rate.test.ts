import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VirtualClock } from '../../src/scenarios/load/clock.js';
import { measureProbe } from '../../src/scenarios/load/rate-group.js';
import { testSettings, virtualEngine } from '../helpers/virtual-server.js';

test('a rate the engine cannot reach is measured and called overloaded, with the achieved rate in the reason, not an error', async () => {
  const clock = new VirtualClock();
  // 10 ms per request: at most 100 requests/s; 1,000 are offered for 2 s.
  const settings = testSettings({ durationMs: 2000, minQueries: 100 });
  const probe = await measureProbe({ plan: { settings, rates: [1000], findPeak: false, maxRps: 100_000 }, round: 0, signal: undefined }, virtualEngine(clock, { serviceMs: () => 10 }), 1000, 'rate', clock);
  assert.ok(probe !== null);
  const v = probe.summary.verdict;
  assert.equal(v.status, 'overloaded');
  assert.match(v.reasons.join('; '), /achieved 100\.\d req\/s, \d+\.\d% below the offered \d+\.\d req\/s/);
  assert.match(v.reasons.join('; '), /the queue grew from/);
  assert.ok(probe.summary.unfinished > 0, 'the queue had not drained when the probe ended');
});
