import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ratioInterval95, studentTCdf, studentTQuantile, tCritical95, welchTTest } from '../../src/core/statistics.js';

/** Reference values from scipy 1.17 (scipy.stats.t, ttest_ind(equal_var=False)). */
const close = (actual: number, expected: number, tol: number, what: string): void =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);

test("Student t CDF, quantile and Welch's test match scipy", () => {
  close(studentTCdf(2.0, 5), 0.9490302605850708, 1e-10, 't.cdf(2, 5)');
  close(studentTCdf(-1.5, 2.5), 0.12391822654314809, 1e-10, 't.cdf(-1.5, 2.5)');
  close(studentTCdf(0.7, 30), 0.7553397782501642, 1e-10, 't.cdf(0.7, 30)');
  close(studentTCdf(3.2, 1), 0.9035887520207704, 1e-10, 't.cdf(3.2, 1)');
  close(studentTCdf(-40, 3), 1.7190340394579253e-5, 1e-12, 't.cdf(-40, 3)');
  assert.equal(studentTCdf(0, 7), 0.5);

  close(studentTQuantile(0.975, 1), 12.706204736174694, 1e-8, 't.ppf(0.975, 1)');
  close(studentTQuantile(0.975, 2.5), 3.5746548420036817, 1e-8, 't.ppf(0.975, 2.5)');
  close(studentTQuantile(0.975, 10), 2.228138851986274, 1e-8, 't.ppf(0.975, 10)');
  close(studentTQuantile(0.975, 3.7), 2.8675207071911895, 1e-8, 't.ppf(0.975, 3.7)');
  close(studentTQuantile(0.995, 200), 2.600634436191558, 1e-8, 't.ppf(0.995, 200)');
  close(studentTQuantile(0.025, 10), -2.228138851986274, 1e-8, 'lower tail is the mirror image');
  // The rounded table the per-batch interval uses agrees to its 3 decimals.
  for (const df of [1, 2, 5, 12, 29]) close(tCritical95(df), studentTQuantile(0.975, df), 6e-4, `table at df ${df}`);

  const w = welchTTest([10.1, 10.5, 9.8, 10.3], [11.0, 11.4, 10.9]);
  assert.ok(w);
  close(w.t, 4.330522446256826, 1e-9, 'Welch t (B − A)');
  close(w.df, 4.754105402279859, 1e-9, 'Welch–Satterthwaite df');
  close(w.p, 0.008404092192709841, 1e-9, 'two-sided p');
  const same = welchTTest([5.0, 5.1, 4.9], [5.05, 5.2, 4.95]);
  assert.ok(same);
  close(same.p, 0.5141226783968217, 1e-9, 'overlapping samples: large p');
  close(same.df, 3.8059405940594004, 1e-9, 'df');
  // One value a side has no spread of its own to test against.
  assert.equal(welchTTest([5], [5.1, 5.2]), null);
  assert.equal(welchTTest([2, 2], [2, 2])?.p, 1);
  assert.equal(welchTTest([2, 2], [3, 3])?.p, 0);
});

test('95% interval of the ratio of means (delta method on the log scale) matches a numpy computation', () => {
  const r = ratioInterval95([10.1, 10.5, 9.8, 10.3], [11.0, 11.4, 10.9]);
  assert.ok(r);
  close(r.ratio, 1.0909090909090908, 1e-12, 'ratio');
  close(r.low, 1.0356179357368853, 1e-8, 'low');
  close(r.high, 1.1491522148863766, 1e-8, 'high');
  assert.equal(ratioInterval95([1], [1, 2]), null);
});
