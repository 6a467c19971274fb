import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import type { RunRecord } from '../../src/core/results.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { renderCsv } from '../../reports/csv-report.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('reports show the first pass, rounds, the interrupted state and why parity is unavailable', async () => {
  const controller = new AbortController();
  // 8 rows at batch 1: b's runs 0–7 are its warm pass, so run 10 is its third timed batch (first round).
  const { registry } = loggedEngines([{ id: 'a' }, { id: 'b', onRun: (i) => i === 10 && controller.abort() }]);
  const bench = new Benchmark({ dataset: memoryDataset(8), batchSizes: [1], rounds: 2, registry, parity: { reference: 'missing-ref' }, stop: { minTimeMs: 0, minBatches: 1 }, signal: controller.signal });
  registry.register(loggedEngines([{ id: 'missing-ref', openError: 'no such file onnx/model.onnx' }]).engines[0] as never);
  const cells = await bench.run(new CharModel(), ['a', 'b']);
  const run: RunRecord = { ...buildSampleRun(), cells, config: { parity: { reference: 'missing-ref' } } };
  const text = renderTerminalReport(run, { details: true, width: 200 });
  assert.match(text, /first pass/);
  assert.match(text, /b +.*1 +interrupted/u, text);
  assert.match(text, /parity unavailable \(a, batch 1; b, batch 1\): reference missing-ref failed to open: no such file onnx\/model\.onnx/);
  assert.match(text, /b, batch 1: .*saw 3 of 8 batches of one pass/u, 'the X× faster line says why b is not compared');
  const [header, ...rows] = parseCsv(renderCsv(run));
  const col = (name: string) => (header ?? []).indexOf(name);
  const b = rows.find((r) => r[col('engine')] === 'b');
  assert.equal(b?.[col('state')], 'interrupted');
  assert.ok(Number(b?.[col('first_pass_ms')]) > 0);
  assert.match(b?.[col('parity_unavailable')] ?? '', /failed to open/);
});
