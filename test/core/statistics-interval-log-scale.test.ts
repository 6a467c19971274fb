import { test } from 'node:test';
import assert from 'node:assert/strict';
import { betweenRoundsOf, computeStatistics, ratioTest, studentTQuantile } from '../../src/core/statistics.js';

test('the interval of a mean time is built on the log scale: it never crosses zero and is centred on the mean multiplicatively', () => {
  // Three widely spread round means: a symmetric Student interval is 370 ± 1,360 ms, reaching −990 ms.
  const r = betweenRoundsOf([10, 100, 1000]);
  assert.ok(r.ci95);
  assert.ok(r.ci95.low > 0, `low end ${r.ci95.low} must be above zero`);
  const w = (4.303 * r.stdev) / Math.sqrt(3) / r.mean;
  assert.ok(Math.abs(r.ci95.low - 370 * Math.exp(-w)) < 1e-9);
  assert.ok(Math.abs(r.ci95.high - 370 * Math.exp(w)) < 1e-6);
  assert.ok(Math.abs(Math.log(r.ci95.high / r.mean) - Math.log(r.mean / r.ci95.low)) < 1e-12, 'symmetric in log units around the mean');
  // Tight rounds give nearly the symmetric interval: the half-width in log units is the relative half-width the verdict judges.
  const tight = computeStatistics([100, 101, 99]);
  assert.ok(tight.ci95 && Math.abs(tight.ci95.low - (100 - tight.ci95.halfWidth)) < 0.05, `${tight.ci95?.low} against ${100 - (tight.ci95?.halfWidth ?? 0)}`);
});

test("compare's call and its ratio interval agree: p < 0.05 exactly when B/A's interval excludes 1", () => {
  let seed = 7;
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let checked = 0;
  for (let i = 0; i < 400; i++) {
    const a = Array.from({ length: 2 + (i % 4) }, () => 10 * (0.5 + rand()));
    const b = Array.from({ length: 2 + ((i >> 2) % 4) }, () => 10 * (0.3 + 1.5 * rand()));
    const r = ratioTest(a, b);
    assert.ok(r);
    assert.ok(r.low > 0);
    const excludes = r.low > 1 || r.high < 1;
    // Skip draws within rounding of the boundary.
    if (Math.abs(Math.abs(r.t) - studentTQuantile(0.975, r.df)) < 1e-6) continue;
    assert.equal(r.p < 0.05, excludes, `a=${a.join(',')} b=${b.join(',')}: p ${r.p}, interval ${r.low}–${r.high}`);
    checked++;
  }
  assert.ok(checked > 390);
});
