import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { copyFixture, replaceGraph } from '../helpers/quantize-folders.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { decodeOnnxFile } from '../../src/core/onnx/onnx-file.js';
import { ensureQuantizedVariant } from '../../src/models/quantize/quantize-cache.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';

test('an export stored as external data (how models over 2 GB are saved) is quantized from its data file, and a variant past the threshold is written with its own', async () => {
  const fixture = readHfFixture('bert');
  const dir = copyFixture('bert', 'quantize-external');
  // The threshold stands in for protobuf's 2 GB limit, which a test cannot reach.
  await replaceGraph(dir, await decodeOnnxFile(fixture.onnxPath), { externalDataAbove: 0 });
  assert.ok(existsSync(join(dir, 'onnx', 'model.onnx_data')));
  assert.ok(statSync(join(dir, 'onnx', 'model.onnx')).size < statSync(fixture.onnxPath).size / 4, 'weights stayed inline');

  const cacheRoot = testOutputDir('quantize-external-cache');
  const made = await ensureQuantizedVariant({ sourceDir: dir, dtype: 'q8', cacheRoot, externalDataAbove: 0 });
  assert.ok('dir' in made);
  const path = join(made.dir, made.file);
  assert.ok(existsSync(`${path}_data`), 'the variant has its external-data file');
  const engine = createOnnxNodeEngine('cpu');
  const session = await engine.open(path, { threads: 1, precision: 'int8' });
  const logits = (await session.run(fixture.feeds))['logits'];
  await session.dispose();
  const ref = JSON.parse(readFileSync(join(fixture.dir, 'quantize-reference.json'), 'utf8')) as { logits: number[] };
  assert.deepEqual(Array.from(logits?.data as Float32Array, (v) => Math.fround(v)), ref.logits.map((v) => Math.fround(v)), 'same logits as quantize_dynamic of the inline export');
  // Size on disk counts the data file.
  const info = await (await new TextClassification(made.dir, { onnxFile: made.file }).init()).info();
  assert.equal(info.sizeBytes, statSync(path).size + statSync(`${path}_data`).size);

  const fp16 = await ensureQuantizedVariant({ sourceDir: dir, dtype: 'fp16', cacheRoot });
  assert.ok('dir' in fp16 && !existsSync(join(fp16.dir, `${fp16.file}_data`)), 'below the default threshold the variant is one file');
  const half = await engine.open(join(fp16.dir, fp16.file), { threads: 1, precision: 'fp16' });
  const halfLogits = (await half.run(fixture.feeds))['logits'];
  await half.dispose();
  const want = fixture.expected['logits']?.data ?? [];
  want.forEach((v, i) => assert.ok(Math.abs(Number(halfLogits?.data[i]) - v) < 5e-3, `fp16 logit ${i}`));
});
