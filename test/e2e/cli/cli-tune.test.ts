import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import '../../../engines/registry.js';
import { tuneGrid } from '../../../src/core/engine-options.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const BERT = join(packageRoot(), 'test', 'data', 'hf', 'bert');

test('tune --engines onnx-cpu,onnx-wasm names a best configuration per engine and batch size, and tune.csv lists every candidate', async () => {
  const out = testOutputDir('tune-onnx');
  // In-process to keep the test short: onnx-wasm's numThreads=2 candidate then cannot start, and tune.csv must say so.
  const r = await runCli(['tune', '--model', BERT, '--engines', 'onnx-cpu,onnx-wasm', '--batch-sizes', '1,2', '--limit', '4', '--warmup', '0', '--min-time', '0', '--min-batches', '1', '--rounds', '2', '--no-isolate', '--no-png', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^TUNE: \d+ candidates/m);
  for (const engine of ['onnx-cpu', 'onnx-wasm']) {
    for (const batch of [1, 2]) {
      // Either a configuration beat the defaults (speed-up, interval, call) or the defaults are best.
      assert.match(r.stdout, new RegExp(`${engine}, batch ${batch}: (the defaults: no candidate beat them|\\[[^\\]]+\\]: [\\d.]+× the defaults' speed( \\(95% CI [\\d.]+×–[\\d.]+×\\))?, (faster|slower|no difference|inconclusive|not compared))`));
    }
  }
  assert.match(r.stdout, /Method: successive halving over \d rung/);
  assert.match(r.stdout, /History: benchmark \d+/);
  const runDir = readdirSync(out).find((d) => /^\d{4}-/.test(d)) ?? '';
  const [head = [], ...rows] = parseCsv(readFileSync(join(out, runDir, 'tune.csv'), 'utf8'));
  const col = (name: string) => head.indexOf(name);
  const candidates = rows.map((row) => row[col('candidate')]);
  assert.equal(rows.length, tuneGrid('onnx-cpu').length + tuneGrid('onnx-wasm').length, candidates.join('\n'));
  for (const engine of ['onnx-cpu', 'onnx-wasm']) {
    const defaults = rows.find((row) => row[col('candidate')] === engine);
    assert.ok(defaults, `${engine}'s defaults are a candidate`);
    assert.equal(defaults[col('is_default')], 'true');
    assert.equal(defaults[col('dropped_in_rung')], '', 'the defaults are never dropped');
  }
  const threads = rows.find((row) => row[col('candidate')] === 'onnx-wasm [numThreads=2]');
  assert.equal(threads?.[col('dropped_in_rung')], '1');
  assert.match(threads?.[col('reason')] ?? '', /separate process/);
  assert.ok(rows.some((row) => row[col('dropped_in_rung')] !== ''), 'the slower half was dropped');
});
