import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  baselineRows,
  batchScalingView,
  coreScalingView,
  defaultBatchScalingThreads,
  defaultCoreScalingBatchSize,
  latencyDistributionView,
  parityFailures,
} from '../../reports/run-views.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { NOISY_CELL, PARITY_FAILURE, SWEEP_ERRORED, buildSweepRun, sweepMeanMs, tfjsThreadsReason } from '../helpers/sweep-run.js';

test('views shape the baseline, core-scaling, batch-scaling and distribution data with sensible defaults', () => {
  const run = buildSweepRun();

  const rows = baselineRows(run);
  assert.equal(rows.length, run.cells.length);
  const failing = rows.find((r) => r.engine === PARITY_FAILURE.engine && r.batchSize === PARITY_FAILURE.batchSize && r.requestedThreads === 1);
  assert.ok(failing);
  assert.equal(failing.parityOk, false);
  assert.equal(failing.parity?.maxAbsDiff, PARITY_FAILURE.maxAbsDiff);
  assert.equal(failing.verdict?.status, 'VALID');
  assert.ok(failing.memory !== null && failing.memory.growthBytes > 0);
  assert.ok(failing.firstBatchMs !== null && failing.warmupMeanMs !== null);
  assert.deepEqual(baselineRows(run, { threads: 2 }).map((r) => r.requestedThreads), Array(9).fill(2));
  assert.deepEqual(parityFailures(run).map((c) => `${c.engine}/${c.batchSize}`), ['tfjs-wasm/8']);

  // Core scaling: largest batch size by default, one curve per engine, gaps kept with their reasons.
  assert.equal(defaultCoreScalingBatchSize(run), 32);
  const core = coreScalingView(run);
  assert.equal(core.fixed.batchSize, 32);
  assert.equal(core.insufficient, null);
  assert.deepEqual(core.xs, [1, 2, 4]);
  assert.deepEqual(core.series.map((s) => s.label), ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm']);
  const cpu = core.series[0];
  assert.ok(cpu);
  assert.deepEqual(cpu.points.map((p) => p.x), [1, 2, 4]);
  assert.ok(Math.abs((cpu.points[2]?.meanMs ?? 0) - sweepMeanMs('onnx-cpu', 32, 4)) < 1e-9);
  assert.equal(cpu.points[0]?.gain, 1);
  assert.ok(Math.abs((cpu.points[2]?.gain ?? 0) - sweepMeanMs('onnx-cpu', 32, 1) / sweepMeanMs('onnx-cpu', 32, 4)) < 1e-9);
  assert.deepEqual(core.series[1]?.gaps, [{ x: SWEEP_ERRORED.threads, state: 'errored', reason: SWEEP_ERRORED.reason }]);
  assert.deepEqual(core.series[2]?.gaps.map((g) => [g.x, g.state, g.reason]), [
    [2, 'skipped', tfjsThreadsReason(2)],
    [4, 'skipped', tfjsThreadsReason(4)],
  ]);

  // A dashboard picks its own fixed value.
  const core1 = coreScalingView(run, { batchSize: 1 });
  assert.equal(core1.series[1]?.points.find((p) => p.x === NOISY_CELL.threads)?.verdict, 'NOISY');

  // Batch scaling: the thread count with the most completed cells (1: every engine ran there).
  assert.equal(defaultBatchScalingThreads(run), 1);
  const batch = batchScalingView(run);
  assert.deepEqual(batch.xs, [1, 8, 32]);
  assert.deepEqual(batch.series.map((s) => s.points.length), [3, 3, 3]);
  assert.equal(batch.series[2]?.points.find((p) => p.x === 8)?.parityOk, false);
  const batch4 = batchScalingView(run, { threads: 4 });
  assert.deepEqual(batch4.series.map((s) => [s.label, s.points.length]), [
    ['onnx-cpu', 3],
    ['onnx-wasm', 2],
    ['tfjs-wasm', 0],
  ]);

  // Latency distribution: one box of raw samples per completed cell.
  const dist = latencyDistributionView(run);
  assert.equal(dist.boxes.length, run.cells.filter((c) => c.state === 'completed').length);
  assert.ok(dist.boxes.some((b) => b.label === 'onnx-cpu (4 threads)' && b.samplesMs.length === 96));
  assert.equal(dist.insufficient, null);
});

test('a view with fewer than 2 points says why instead of producing an empty series', () => {
  const old = buildSampleRun(); // engine-default threads only, no issue-6 fields
  const core = coreScalingView(old);
  assert.match(core.insufficient ?? '', /needs 2 or more thread counts; this run measured only engine-default threads \(sweep them with --threads 1,2,4\)/u);
  assert.equal(batchScalingView(old).insufficient, null, 'batch scaling works at engine-default threads');
  assert.equal(defaultBatchScalingThreads(old), null);

  const oneBatch = { ...old, cells: old.cells.filter((c) => c.batchSize === 8) };
  assert.match(batchScalingView(oneBatch).insufficient ?? '', /batch scaling needs 2 or more batch sizes; this run measured batch 8/u);

  const row = baselineRows(old)[0];
  assert.ok(row);
  assert.equal(row.verdict, null);
  assert.equal(row.memory, null);
  assert.equal(row.parityOk, null);
  assert.equal(row.firstBatchMs, null);
  assert.equal(row.warmupMeanMs, null);
});
