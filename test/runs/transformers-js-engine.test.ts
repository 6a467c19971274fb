import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { ensureVariantFile } from '../../src/models/generated/variants.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CellSkip } from '../../src/core/errors.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import { compareVariantOutputs } from '../../src/models/variant-parity.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTransformersJsEngine } from '../../engines/transformers-js/transformers-js-engine.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('transformers-js runs the pipeline on raw texts, matches onnx-cpu on the same file and times its raw forward', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const model = await new TextClassification(dir).init();
  const engine = createTransformersJsEngine('cpu');
  assert.equal((await engine.probe()).available, true);
  const session = await engine.open(model.onnxPath(), { threads: 1, precision: 'fp32' });
  const d = session.describe();
  assert.equal(d.engine, 'transformers-js');
  assert.equal(d.backend, 'onnxruntime-node cpu via transformers.js');
  assert.equal(d.threads, 1);
  assert.ok(d.versions['@huggingface/transformers'] && d.versions['onnxruntime-node']);
  assert.ok(d.notes?.some((n) => n.includes('includes tokenization and post-processing')));

  const inputs = model.prepareBatch(REVIEW_TEXTS.slice(0, 4).map((text) => ({ text })), { text: 'text', label: null });
  const t0 = performance.now();
  const out = await session.run(inputs);
  const pipelineMs = performance.now() - t0;
  const forward = session.innerForwardMs?.();
  assert.ok(typeof forward === 'number' && forward > 0 && forward <= pipelineMs, `forward ${forward} vs pipeline ${pipelineMs}`);
  const ort = await createOnnxNodeEngine('cpu').open(model.onnxPath(), { threads: 1, precision: 'fp32' });
  const parity = compareVariantOutputs(await ort.run(inputs), out, { reference: 'onnx-cpu', engine: 'transformers-js' });
  assert.ok(parity.maxAbsDiff < 1e-4 && parity.argmaxAgreement === 1, JSON.stringify(parity));
  await ort.dispose();

  // Without texts (synthetic fixed-length inputs) the cell is skipped, not run on something else.
  await assert.rejects(session.run(model.tokenizeTexts(['x'])), (err: unknown) => err instanceof CellSkip && /raw texts/.test(err.message));
  await session.dispose();

  // A variant file is selected by transformers.js's own dtype name.
  const q8 = await ensureVariantFile(dir, 'q8');
  assert.ok('path' in q8);
  const quantized = await engine.open(q8.path, { threads: 1, precision: 'int8' });
  assert.ok(quantized.describe().notes?.includes('dtype q8 (model_quantized.onnx)'));
  await quantized.dispose();
});

test('the benchmark records the raw forward beside the pipeline time of each transformers-js cell', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const model = await new TextClassification(dir).init();
  const bench = new Benchmark({ dataset: memoryDataset(8), batchSizes: [4], warmupBatches: 1, threads: 1 });
  const [cell] = await bench.run(model, [createTransformersJsEngine('cpu')]);
  assert.equal(cell?.state, 'completed', JSON.stringify(cell));
  if (cell?.state !== 'completed') return;
  assert.equal(cell.samples.forwardMs?.length, cell.samples.runMs.length);
  assert.ok(cell.forward && cell.forward.mean > 0 && cell.forward.mean <= cell.latency.mean);
});

test('transformers-js-cuda is unavailable with the reason on a machine without the CUDA provider', async (t) => {
  if (nvidiaGpus().length > 0 && existsSync('/dev/nvidia0')) t.skip('a GPU is present; the CUDA path is checked on the device');
  const a = await createTransformersJsEngine('cuda').probe();
  assert.equal(a.available, false);
  if (!a.available) assert.match(a.reason, /CUDA provider/);
});
