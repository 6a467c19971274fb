import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSV_COLUMNS, renderCsv } from '../../reports/csv-report.js';
import type { CompletedCell } from '../../src/core/results.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { NOISY_CELL, buildSweepRun } from '../helpers/sweep-run.js';

const NEW_COLUMNS = [
  'p95_ms', 'cv', 'ci95_low_ms', 'ci95_high_ms', 'verdict', 'verdict_reasons', 'baseline_rss_bytes', 'rss_growth_bytes',
  'rss_sample_hz', 'engine_tensors', 'engine_bytes', 'gpu_bytes', 'open_ms', 'first_batch_ms', 'warmup_batches',
  'warmup_mean_ms', 'parity_reference', 'max_abs_diff', 'argmax_agreement', 'parity_tolerance', 'parity_ok', 'accuracy',
  'sequence_length', 'ep_nodes', 'ep_cpu_fallback_ops', 'first_pass_ms', 'rounds', 'ci95_across', 'parity_unavailable', 'verdict_warnings',
];

/** Rows of a CSV keyed by column name. */
function records(csv: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(csv);
  assert.ok(header);
  assert.deepEqual(header, [...CSV_COLUMNS]);
  return rows.map((row) => {
    assert.equal(row.length, header.length);
    return Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
  });
}

test('CSV has the statistics, verdict, memory, cold-start and parity columns, empty where a record lacks them', () => {
  for (const name of NEW_COLUMNS) assert.ok(CSV_COLUMNS.includes(name), `missing column ${name}`);

  const run = buildSweepRun();
  const rows = records(renderCsv(run));
  const find = (engine: string, batch: number, threads: number): Record<string, string> => {
    const row = rows.find((r) => r['engine'] === engine && r['batch_size'] === String(batch) && r['requested_threads'] === String(threads));
    assert.ok(row, `${engine} ${batch} ${threads}`);
    return row;
  };
  const cellOf = (engine: string, batch: number, threads: number): CompletedCell =>
    run.cells.find((c) => c.engine === engine && c.batchSize === batch && c.requestedThreads === threads) as CompletedCell;

  const tfjs = find('tfjs-wasm', 32, 1);
  const cell = cellOf('tfjs-wasm', 32, 1);
  assert.equal(Number(tfjs['p95_ms']), cell.latency.p95);
  assert.equal(Number(tfjs['cv']), cell.latency.cv);
  assert.equal(Number(tfjs['ci95_low_ms']), cell.latency.ci95?.low);
  assert.equal(Number(tfjs['ci95_high_ms']), cell.latency.ci95?.high);
  assert.equal(tfjs['verdict'], 'VALID');
  assert.equal(tfjs['verdict_reasons'], '');
  assert.equal(Number(tfjs['baseline_rss_bytes']), cell.memory?.baselineRssBytes);
  assert.equal(Number(tfjs['rss_growth_bytes']), cell.memory?.growthBytes);
  assert.equal(Number(tfjs['rss_sample_hz']), cell.memory?.sampleHz);
  assert.equal(tfjs['engine_tensors'], '212');
  assert.equal(Number(tfjs['engine_bytes']), cell.memory?.engine?.numBytes);
  assert.equal(tfjs['gpu_bytes'], '', 'no GPU: empty, not 0');
  assert.equal(Number(tfjs['first_batch_ms']), cell.coldStart?.firstBatchMs);
  assert.equal(tfjs['warmup_batches'], '3');
  const warmup = cell.samples.warmupMs ?? [];
  assert.ok(Math.abs(Number(tfjs['warmup_mean_ms']) - warmup.reduce((a, b) => a + b, 0) / warmup.length) < 1e-9);
  assert.equal(tfjs['parity_ok'], 'true');
  assert.equal(Number(tfjs['argmax_agreement']), 1);
  assert.equal(Number(tfjs['accuracy']), 49 / 96);
  assert.equal(tfjs['sequence_length'], '');

  const noisy = find(NOISY_CELL.engine, NOISY_CELL.batchSize, NOISY_CELL.threads);
  assert.equal(noisy['verdict'], 'NOISY');
  assert.equal(noisy['verdict_reasons'], NOISY_CELL.reasons.join('; '));

  const onnx = find('onnx-cpu', 8, 2);
  assert.deepEqual([onnx['engine_tensors'], onnx['parity_ok'], onnx['parity_reference']], ['', '', '']);
  assert.deepEqual([tfjs['ep_nodes'], tfjs['ep_cpu_fallback_ops']], ['', ''], 'no ORT placement: empty');

  // An onnxruntime-node row with a placement read from ORT's profiler: providers by node count, then the CPU-fallback ops.
  const placed = buildSweepRun();
  const gpuCell = placed.cells.find((c) => c.engine === 'onnx-cpu' && c.state === 'completed') as CompletedCell;
  Object.assign(gpuCell, {
    session: {
      ...gpuCell.session,
      placement: { byProvider: { CPUExecutionProvider: { nodes: 3, timeUs: 6 }, CUDAExecutionProvider: { nodes: 70, timeUs: 94 } }, cpuFallbackOps: ['Gather', 'Shape'] },
    },
  });
  const placedRow = records(renderCsv(placed)).find((r) => r['run_id'] === placed.id && r['ep_nodes'] !== '');
  assert.equal(placedRow?.['ep_nodes'], 'CUDAExecutionProvider:70;CPUExecutionProvider:3');
  assert.equal(placedRow?.['ep_cpu_fallback_ops'], 'Gather;Shape');

  // Records written before these fields existed still give one full-width row per cell, with the new fields empty.
  const old = records(renderCsv(buildSampleRun()));
  const completed = old.find((r) => r['state'] === 'completed');
  assert.ok(completed);
  for (const name of ['verdict', 'baseline_rss_bytes', 'first_batch_ms', 'warmup_mean_ms', 'parity_ok', 'accuracy', 'sequence_length']) {
    assert.equal(completed[name], '', name);
  }
  assert.notEqual(completed['p95_ms'], '');
});
