import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createOnnxWasmEngine } from '../../engines/onnx/onnx-wasm-engine.js';
import { createTransformersJsEngine } from '../../engines/transformers-js/transformers-js-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';

const require = createRequire(import.meta.url);

test('the ONNX Runtime packages in use have no training API, and their engines say so instead of offering openTrainer', async () => {
  const version = (pkg: string) => (JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version;
  assert.equal(version('onnxruntime-node'), '1.30.0', 'the reason quotes 1.30; re-check it when onnxruntime-node changes');
  // The claim quoted in the skip reason and the README, checked against the installed modules.
  const node = Object.keys(await import('onnxruntime-node')).filter((k) => k !== 'default' && k !== '__esModule').sort();
  assert.deepEqual(node, ['InferenceSession', 'TRACE', 'TRACE_EVENT_BEGIN', 'TRACE_EVENT_END', 'TRACE_FUNC_BEGIN', 'TRACE_FUNC_END', 'Tensor', 'env', 'listSupportedBackends', 'registerBackend']);
  const web = Object.keys(await import('onnxruntime-web')).filter((k) => k !== 'default');
  assert.ok(!web.some((k) => /train/i.test(k)), `onnxruntime-web exports ${web.join(', ')}`);
  const common = readFileSync(join(dirname(require.resolve('onnxruntime-node/package.json')), '..', 'onnxruntime-common', 'dist', 'esm', 'index.d.ts'), 'utf8');
  assert.ok(!/train/i.test(common), 'onnxruntime-common declares no training types');

  for (const engine of [createOnnxNodeEngine('cpu'), createOnnxNodeEngine('cuda'), createOnnxWasmEngine(), createTransformersJsEngine('cpu')]) {
    assert.equal(engine.openTrainer, undefined, engine.id);
    assert.match(engine.trainingUnsupported ?? '', /has no training API/, engine.id);
  }
  assert.equal(typeof createTfjsEngine('wasm').openTrainer, 'function');
});
