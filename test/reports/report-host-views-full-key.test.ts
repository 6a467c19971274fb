/**
 * Point 10 of issue 22: per-host views of a queue run key on every part of
 * a cell's key (model, engine, threads read back, batch, sequence length),
 * so no cell is dropped and no two share a bar, and they carry the main
 * tables' flags (NOISY, PARTIAL, ✗ PARITY).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell } from '../../src/core/results.js';
import { hostChartSpec, hostSections } from '../../reports/host-views.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const rounds = (meanMs: number) => [{ passes: 1, meanMs }, { passes: 1, meanMs: meanMs * 1.01 }, { passes: 1, meanMs: meanMs * 0.99 }];
const cells: CompletedCell[] = ['t4', 'cpu-box'].flatMap((host) => [
  cellFromRounds({ host, engine: 'onnx-cpu', batchSize: 8, rows: 32, requestedThreads: 1, threads: 1, rounds: rounds(8) }),
  cellFromRounds({ host, engine: 'onnx-cpu', batchSize: 8, rows: 32, requestedThreads: 2, threads: 2, rounds: rounds(5) }),
  host === 't4'
    ? cellFromRounds({ host, engine: 'tfjs-cpu', batchSize: 8, rows: 32, requestedThreads: 1, threads: 1, rounds: [{ passes: 0, seen: 1, meanMs: 90 }] })
    : cellFromRounds({ host, engine: 'tfjs-cpu', batchSize: 8, rows: 32, requestedThreads: 1, threads: 1, rounds: rounds(60) }),
]);
const run = runOf(cells);

test('SAMPLES/S BY HOST has a row per cell key, threads included, with flags; the chart draws one bar per host and key', () => {
  const table = hostSections(run, 80, false).join('\n');
  const body = table.slice(table.indexOf('SAMPLES/S BY HOST'));
  // 32 rows per pass: 1 thread at 8 ms a batch is 1.00k/s, 2 threads at 5 ms is 1.60k/s; both rows are there.
  assert.match(body, /onnx-cpu +1 +8 +1\.00k\/s +1\.00k\/s/u);
  assert.match(body, /onnx-cpu +2 +8 +1\.60k\/s +1\.60k\/s/u);
  assert.match(body, /tfjs-cpu +1 +8 +133\/s +n\/a NOISY PARTIAL/u, 'the partial cell has no figure, only its flags');

  const spec = hostChartSpec(run) as unknown as { data: { values: { host: string; engine: string; batch: string }[] } };
  const bars = spec.data.values.map((v) => `${v.host}|${v.engine}|${v.batch}`);
  assert.equal(new Set(bars).size, bars.length, 'no two cells share a bar');
  assert.equal(bars.length, 5, 'every cell with a whole pass, the partial one left out');
  assert.ok(bars.includes('t4|onnx-cpu · 2 threads|batch 8') && bars.includes('t4|onnx-cpu · 1 thread|batch 8'));
});
