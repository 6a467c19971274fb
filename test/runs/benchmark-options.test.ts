import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveBenchmarkOptions, DEFAULT_BATCH_SIZES } from '../../src/scenarios/classify/benchmark-options.js';
import { UserError } from '../../src/core/errors.js';

test('defaults are filled in one place', () => {
  const r = resolveBenchmarkOptions();
  assert.deepEqual(r.batchSizes, DEFAULT_BATCH_SIZES);
  assert.deepEqual(r.threads, [null]);
  assert.equal(r.warmupBatches, 2);
});

test('batch sizes of 0, negative or fractional are refused, naming the option', () => {
  for (const bad of [0, -4, 2.5]) {
    assert.throws(
      () => resolveBenchmarkOptions({ batchSizes: [1, bad] }, { batchSizes: '--batch-sizes' }),
      (err: unknown) => err instanceof UserError && /--batch-sizes must be a positive integer/.test(err.message),
    );
  }
  assert.throws(() => resolveBenchmarkOptions({ batchSizes: [] }), /batchSizes is empty/);
});

test('a thread list sweeps each count once; 0 is refused naming the option', () => {
  assert.deepEqual(resolveBenchmarkOptions({ threads: [1, 2, 2] }).threads, [1, 2]);
  assert.deepEqual(resolveBenchmarkOptions({ threads: 4 }).threads, [4]);
  assert.throws(() => resolveBenchmarkOptions({ threads: [0] }, { threads: '--threads' }), /--threads must be a positive integer/);
});
