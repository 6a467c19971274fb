import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passDecision, perRoundRule, verdictOfRounds, DEFAULT_STOP_RULE, type RoundsVerdictInput } from '../../src/core/stop-rule.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';

test('a round stops at a pass boundary: done once both minimums hold, max when another pass would overrun', () => {
  const rule = { minTimeMs: 2000, minBatches: 20, maxTimeMs: 10_000, maxBatches: 1000 };
  assert.equal(passDecision({ elapsedMs: 2500, batches: 25, passes: 1 }, rule), 'done');
  assert.equal(passDecision({ elapsedMs: 1000, batches: 25, passes: 1 }, rule), 'continue');
  assert.equal(passDecision({ elapsedMs: 3000, batches: 8, passes: 1 }, rule), 'continue');
  // A pass of 6 s: the next would end at 12 s, past the 10 s maximum.
  assert.equal(passDecision({ elapsedMs: 6000, batches: 8, passes: 1 }, rule), 'max');
  assert.equal(passDecision({ elapsedMs: 1000, batches: 600, passes: 1 }, rule), 'max');
});

test('the cell budget is split evenly across rounds', () => {
  assert.deepEqual(perRoundRule({ minTimeMs: 1500, minBatches: 20, maxTimeMs: 9000, maxBatches: 300 }, 3), { minTimeMs: 500, minBatches: 7, maxTimeMs: 3000, maxBatches: 100 });
  assert.deepEqual([DEFAULT_STOP_RULE.minTimeMs, DEFAULT_STOP_RULE.minBatches, DEFAULT_STOP_RULE.maxTimeMs], [1000, 20, 15_000]);
});

const rule = { ...DEFAULT_STOP_RULE };
const base = (means: number[]): RoundsVerdictInput => ({
  latency: computeStatistics(Array.from({ length: 30 }, (_, i) => means[i % means.length] as number)),
  betweenRounds: betweenRoundsOf(means),
  rule,
  maxCv: 1,
  roundsPlanned: means.length,
  stoppedAtMax: false,
  partialPass: null,
  warmPassCut: null,
  interrupted: false,
  warnings: [],
});

test('VALID needs rounds that agree within ±5%; disagreeing rounds are NOISY and say by how much', () => {
  assert.deepEqual(verdictOfRounds(base([10, 10.1, 9.9])), { status: 'VALID', reasons: [] });
  const v = verdictOfRounds(base([10, 12, 11]));
  assert.equal(v.status, 'NOISY');
  assert.match(v.reasons.join('; '), /rounds disagree: 95% CI across 3 rounds ±22\.6% \(above ±5%\)/);
});

test('one round, a partial pass, interruption and too few batches are each a NOISY reason; host noise is a warning', () => {
  const v = verdictOfRounds({
    ...base([10]),
    latency: computeStatistics([10, 10, 10]),
    roundsPlanned: 3,
    partialPass: { seen: 3, of: 8, exact: true },
    interrupted: true,
    warnings: ['host busy in round 1: load 1.50 per core (above 1)'],
  });
  assert.equal(v.status, 'NOISY');
  const text = v.reasons.join('; ');
  assert.match(text, /interrupted \(Ctrl-C\) after 1 of 3 rounds/);
  assert.match(text, /saw 3 of 8 batches of one pass/);
  assert.match(text, /only 3 batches \(minimum 20\)/);
  assert.match(text, /1 round: no interval across rounds/);
  assert.deepEqual(v.warnings, ['host busy in round 1: load 1.50 per core (above 1)']);
  assert.equal(verdictOfRounds({ ...base([10, 10, 10]), warnings: ['CPU steal 9.0% during round 2 (above 5%)'] }).status, 'VALID');
});
