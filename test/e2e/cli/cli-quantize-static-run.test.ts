import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { copyFixture } from '../../helpers/quantize-folders.js';
import { prepareData } from '../../../src/scenarios/classify/open-group.js';
import { openDataset } from '../../../datasets/open-dataset.js';

test('--dtype q8-static on an export with only model.onnx: calibrated on the first --calibration-rows rows, recorded in the run, and every cell measures the rows after them', async () => {
  const model = copyFixture('bert', 'quantize-static-run');
  const out = testOutputDir('quantize-static-run-out');
  const r = await runCli(['run', '--details', '--model', model, '--dtype', 'fp32,q8-static', '--calibration-rows', '16', '--calibration-method', 'percentile', '--engines', 'onnx-cpu', '--batch-sizes', '8', '--limit', '16', '--rounds', '1', '--min-time', '0', '--no-isolate', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => f !== 'history.duckdb');
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.deepEqual(run.config['calibration'], { rows: 16, method: 'percentile', firstMeasuredRow: 16 });
  const q8s = run.models.find((m) => m.name === 'bert · q8-static');
  assert.deepEqual(q8s?.variant?.calibration, { rows: 16, method: 'percentile' });
  assert.match(q8s?.variant?.method ?? '', /^static QDQ calibrated on 16 rows \(percentile\)/);
  for (const name of ['bert · fp32', 'bert · q8-static']) assert.equal(run.cells.find((c) => c.model === name)?.state, 'completed', name);
  assert.match(r.stdout, /QUANTIZATION – each variant against fp32/);
  assert.match(r.stdout, /q8-static was calibrated on the first 16 dataset rows \(percentile\); every cell measured the rows after them/);
  assert.ok(readdirSync(join(out, runId ?? '')).includes('quantization.png'));
  assert.equal(readdirSync(join(model, 'onnx')).join(','), 'model.onnx');
});

test('the rows a cell streams start after the skipped calibration rows, before the limit', async () => {
  const all: string[] = [];
  for await (const row of (await openDataset()).take(8)) all.push(String(row['text']));
  const { dataset } = await prepareData({ dataset: undefined, limit: 4, skipRows: 3, textColumn: undefined, labelColumn: undefined }, true);
  const seen: string[] = [];
  for await (const row of dataset) seen.push(String(row['text']));
  assert.deepEqual(seen, all.slice(3, 7));
});
