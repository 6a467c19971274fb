import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserError } from '../../src/core/errors.js';
import { parseLatencyGoal } from '../../src/scenarios/load/latency-goal.js';

test('--slo names the bad part: a negative limit, an unknown unit (listing the units), a percentile that is no number', () => {
  const cases: [string, RegExp][] = [
    ['p99=-1ms', /--slo limit -1ms is negative: a latency limit must be above 0/],
    ['p99=5parsecs', /--slo limit 5parsecs has an unknown unit "parsecs": the units are ms and s/],
    ['pxx=5ms', /--slo percentile "pxx" is not a number/],
    ['p99=', /--slo p99= has no limit after "="/],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => parseLatencyGoal(text, '--slo'), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, message);
      assert.match(err.fix ?? '', /limit in ms or s/);
      return true;
    }, text);
  }
  assert.deepEqual(parseLatencyGoal('p99=50ms'), { percentile: 99, limitMs: 50 });
  assert.deepEqual(parseLatencyGoal('p95=0.2s'), { percentile: 95, limitMs: 200 });
});
