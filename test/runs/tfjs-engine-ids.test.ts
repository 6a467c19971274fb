import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_ENGINE_FACTORIES, ENGINE_IDS, defaultRegistry } from '../../engines/registry.js';
import { engineIdFor, formatOf } from '../../engines/engine-target.js';
import { defaultEngineIds } from '../../src/scenarios/run-driver.js';

const NATIVE = ['tfjs-node-saved-model', 'tfjs-node-gpu-saved-model', 'tfjs-node-graph-model', 'tfjs-node-gpu-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model'];

test('tfjs engine ids say their executor: the backend, then graph-model or saved-model (none: the translator)', async () => {
  assert.equal(engineIdFor({ family: 'tfjs', backend: 'node', executor: 'saved-model' }), 'tfjs-node-saved-model');
  assert.equal(engineIdFor({ family: 'tfjs', backend: 'wasm', executor: 'graph-model' }), 'tfjs-wasm-graph-model');
  assert.equal(engineIdFor({ family: 'tfjs', backend: 'wasm', executor: 'translator' }), 'tfjs-wasm');
  assert.equal(engineIdFor({ family: 'tfjs', backend: 'cpu' }), 'tfjs-cpu');
  for (const id of [...NATIVE, 'tfjs-node', 'tfjs-wasm', 'tfjs-cpu', 'browser-tfjs-wasm-graph-model', 'browser-tfjs-webgl-graph-model']) {
    assert.ok(ENGINE_IDS.includes(id), `${id} is registered`);
    const engine = await (BUILTIN_ENGINE_FACTORIES[id] as () => Promise<import('../../src/core/engine.js').Engine>)();
    const format = engine.format;
    assert.ok(engine.target, `${id}, a built-in family's engine, says its target`);
    assert.equal(format, formatOf(engine.target), `${id} declares the format of its target`);
    assert.equal(format, id.endsWith('-saved-model') ? 'saved-model' : id.endsWith('-graph-model') ? 'graph-model' : 'onnx', id);
    assert.match(engine.description, format === 'graph-model' ? /GraphModel \(model\.json\) with tfjs-converter's executor/ : format === 'saved-model' ? /SavedModel as one TensorFlow session call/ : /ONNX graph translated to tfjs ops/, id);
  }
});

test('a run without --engines sweeps the native tfjs paths of every backend beside the translator, browser engines left out', async () => {
  const ids = await defaultEngineIds(defaultRegistry);
  for (const id of [...NATIVE, 'tfjs-node', 'tfjs-wasm', 'tfjs-cpu']) assert.ok(ids.includes(id), `${id} in the default sweep`);
  assert.ok(!ids.some((id) => id.startsWith('browser-')));
});
