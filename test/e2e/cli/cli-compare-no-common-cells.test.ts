import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { buildSampleRun, MODEL_NAME } from '../../helpers/sample-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('compare of two runs with no cell in common names what differs (model, sequence length), not the engines and batches they share', async () => {
  const out = testOutputDir('cli-compare-no-common');
  const sample = buildSampleRun();
  await seedEntry(out, 'dataset-text');
  const tiny = { ...sample, models: [{ ...sample.models[0]!, name: 'tiny' }], cells: sample.cells.map((c) => ({ ...c, model: 'tiny', sequenceLength: 8 })) };
  await seedEntry(out, 'tiny-seq-8', { record: tiny });
  const r = await runCli(['compare', '1', '2', '--out', out, '--no-png']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, new RegExp(`no cells in common: they differ in model: A ${MODEL_NAME}; B tiny · sequence length: A dataset text; B 8 \\(the same engine onnx-cpu, onnx-wasm, tfjs-wasm, tfjs-cpu, batch size 1, 8, 32`));
  assert.match(r.stderr, /measure one run with the other's model and sequence length/);
  const differ = /they differ in (.*?) \(the same/.exec(r.stderr)?.[1] ?? '';
  assert.doesNotMatch(differ, /engine|batch|threads/, 'what they share is not given as the difference');
});
