import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { toNumbers } from '../../src/core/tensor.js';
import { bertBatch, bertModelDir } from '../helpers/tfjs-bert.js';
import { runOnnxRuntime, runTfjs } from '../helpers/tfjs-op-harness.js';

test('tfjs-cpu and tfjs-wasm reproduce onnxruntime-node logits of the default BERT model on a padded batch (max |diff| <= 1e-4)', async () => {
  const dir = await bertModelDir();
  const path = join(dir, 'onnx', 'model.onnx');
  const feeds = await bertBatch(dir, [
    'A wonderful film with a heartfelt story and superb acting.',
    'Loud.',
    'Terrible pacing, wooden performances, and a pointless ending. I walked out halfway through.',
    'The music alone is worth the price of the ticket.',
  ]);
  const expected = await runOnnxRuntime(await readFile(path), feeds);
  const want = expected['logits'];
  assert.ok(want, 'onnxruntime returned no logits');
  for (const backend of ['cpu', 'wasm'] as const) {
    const out = await runTfjs(backend, path, feeds);
    const logits = out['logits'];
    assert.ok(logits, `tfjs-${backend} returned no logits`);
    assert.equal(logits.dtype, 'float32');
    assert.deepEqual([...logits.dims], [...want.dims]);
    const got = toNumbers(logits);
    const maxDiff = Math.max(...got.map((v, i) => Math.abs(v - (want.values[i] as number))));
    assert.ok(maxDiff <= 1e-4, `tfjs-${backend} logits differ from onnxruntime by ${maxDiff}`);
  }
});
