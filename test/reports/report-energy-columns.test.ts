import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSV_COLUMNS, renderCsv } from '../../reports/csv-report.js';
import { resultsTable } from '../../reports/result-tables.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import type { CellResult, CompletedCell, RunRecord } from '../../src/core/results.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { buildSampleRun } from '../helpers/sample-run.js';

const NO_GPU = { unmeasurable: 'no NVIDIA GPU (nvidia-smi lists none)' };
const NO_RAPL = { unmeasurable: 'no RAPL: /sys/class/powercap does not exist (no powercap driver, or a VM that hides it)' };

/** The sample run with energy on every completed cell: unmeasurable here, or measured on onnx-cpu batch 8. */
function withEnergy(measuredOnnx8: boolean): RunRecord {
  const run = buildSampleRun();
  const cells = run.cells.map((c): CellResult => {
    if (c.state !== 'completed') return c;
    const measured = measuredOnnx8 && c.engine === 'onnx-cpu' && c.batchSize === 8;
    const cell: CompletedCell = {
      ...c,
      memory: { ...(c.memory ?? { baselineRssBytes: 1, peakRssBytes: 2, growthBytes: 1, sampleHz: 100 }), gpu: measured ? { peakBytes: 43 * 1024 * 1024, windowMs: 1000, readings: 10, source: 'nvidia-smi' } : NO_GPU },
      energy: measured
        ? {
            gpu: { joules: 150, joulesPerSample: 1.5, samples: 100, windowMs: 1000, source: 'nvidia-smi power.draw, GPU 00000000:18:00.0', scope: 'board power, idle power included' },
            cpu: { joules: 20, joulesPerSample: 0.2, samples: 100, windowMs: 1000, source: 'RAPL package-0', scope: 'whole CPU package(s)' },
          }
        : { gpu: NO_GPU, cpu: NO_RAPL },
    };
    return cell;
  });
  return { ...run, cells };
}

function rows(run: RunRecord): Record<string, string>[] {
  const [header, ...body] = parseCsv(renderCsv(run));
  assert.ok(header);
  return body.map((r) => Object.fromEntries(header.map((n, i) => [n, r[i] ?? ''])));
}

test('CSV and Parquet carry GPU peak memory and J/sample, empty with `unmeasurable: <why>` in the note where the hardware gave none, never 0', () => {
  for (const c of ['gpu_peak_bytes', 'gpu_peak_note', 'gpu_j_per_sample', 'gpu_energy_note', 'cpu_j_per_sample', 'cpu_energy_note']) assert.ok(CSV_COLUMNS.includes(c), c);
  const here = rows(withEnergy(false)).filter((r) => r['state'] === 'completed');
  assert.ok(here.length > 0);
  for (const r of here) {
    assert.equal(r['gpu_peak_bytes'], '');
    assert.equal(r['gpu_j_per_sample'], '');
    assert.equal(r['cpu_j_per_sample'], '');
    assert.equal(r['gpu_energy_note'], 'unmeasurable: no NVIDIA GPU (nvidia-smi lists none)');
    assert.match(r['cpu_energy_note'] ?? '', /^unmeasurable: no RAPL/);
  }
  const gpu = rows(withEnergy(true)).find((r) => r['engine'] === 'onnx-cpu' && r['batch_size'] === '8');
  assert.equal(gpu?.['gpu_peak_bytes'], String(43 * 1024 * 1024));
  assert.equal(gpu?.['gpu_j_per_sample'], '1.5');
  assert.match(gpu?.['gpu_energy_note'] ?? '', /150\.000 J over 100 rows in the timed loops \(1000 ms\); nvidia-smi power\.draw.*idle power included/);
  const table = resultsTable(withEnergy(true));
  const col = table.columns.find((c) => c.name === 'gpu_j_per_sample');
  assert.equal(col?.kind, 'float');
  assert.ok(col?.values.includes(1.5));
});

test('the terminal says unmeasurable with the reason on this kind of machine, and shows the figures with their window where measured', () => {
  const here = renderTerminalReport(withEnergy(false), { details: true, color: false, width: 160 });
  assert.match(here, /GPU MEMORY AND ENERGY \(timed loop\)/);
  assert.match(here, /GPU energy \(board power, nvidia-smi\): unmeasurable: no NVIDIA GPU/);
  assert.match(here, /CPU energy \(RAPL\): unmeasurable: no RAPL: \/sys\/class\/powercap does not exist/);
  const gpu = renderTerminalReport(withEnergy(true), { details: true, color: false, width: 160 });
  assert.match(gpu, /GPU J\/sample/);
  assert.match(gpu, /1\.50/);
  assert.match(gpu, /window: the timed loops/);
  assert.match(gpu, /idle power and other processes are included/);
  // The other cells' reasons still show, naming them.
  assert.match(gpu, /GPU energy \(board power, nvidia-smi\): unmeasurable: no NVIDIA GPU \(.*onnx-cpu.*batch 1/);
});
