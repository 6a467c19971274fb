import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINE_IDS } from '../../engines/registry.js';
import { allowedValues, engineOptionTable, parseEngineOptions } from '../../src/core/engine-options.js';
import { ignoredOrtOptions, ortSessionOptions } from '../../engines/onnx/onnx-options.js';

test('every option of every engine documents its type, default, effect, application and read-back, and its default is an allowed value', () => {
  let count = 0;
  for (const id of ENGINE_IDS) {
    for (const spec of Object.values(engineOptionTable(id))) {
      count++;
      for (const field of ['doc', 'applied', 'readBack'] as const) assert.ok(spec[field].length > 10, `${id} ${spec.key} ${field}`);
      assert.ok(allowedValues(spec.type).length > 0);
      if (spec.default !== '' && spec.default !== 'detected') parseEngineOptions(`${id}:${spec.key}=${spec.default}`);
    }
  }
  assert.ok(count > 20, `${count} options`);
});

test('the engines the issue names take their options', () => {
  const keys = (id: string) => Object.keys(engineOptionTable(id));
  for (const k of ['graphOptimizationLevel', 'executionMode', 'interOpNumThreads', 'enableCpuMemArena', 'enableMemPattern', 'session.intra_op.allow_spinning']) assert.ok(keys('onnx-cpu').includes(k), k);
  assert.ok(keys('onnx-webgpu').includes('preferredLayout'));
  for (const k of ['numThreads', 'proxy', 'freeDimensionOverrides']) assert.ok(keys('onnx-wasm').includes(k), k);
  assert.ok(keys('tfjs-wasm').includes('WASM_HAS_SIMD_SUPPORT'));
  assert.ok(keys('tfjs-webgpu').includes('WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE'));
  assert.ok(keys('transformers-js').includes('graphOptimizationLevel'));
  assert.deepEqual(keys('tfjs-cpu'), []);
});

test('ORT session options: direct keys typed, spinning as a session config entry, free dims and the WebGPU layout where ORT reads them', () => {
  const base = { executionProviders: ['webgpu'], graphOptimizationLevel: 'all', interOpNumThreads: 1 };
  const out = ortSessionOptions(base, { graphOptimizationLevel: 'disabled', interOpNumThreads: '2', enableCpuMemArena: 'false', 'session.intra_op.allow_spinning': '0', preferredLayout: 'NHWC', freeDimensionOverrides: 'batch_size:1,sequence_length:8' });
  assert.equal(out['graphOptimizationLevel'], 'disabled');
  assert.equal(out['interOpNumThreads'], 2);
  assert.equal(out['enableCpuMemArena'], false);
  assert.deepEqual(out['extra'], { session: { intra_op: { allow_spinning: '0' } } });
  assert.deepEqual(out['executionProviders'], [{ name: 'webgpu', preferredLayout: 'NHWC' }]);
  assert.deepEqual(out['freeDimensionOverrides'], { batch_size: 1, sequence_length: 8 });
  assert.equal(base.graphOptimizationLevel, 'all', 'the base is not changed');
  assert.deepEqual(ortSessionOptions(base, undefined), base);
});

test('inter-op threads in sequential mode are flagged as ignored', () => {
  assert.equal(ignoredOrtOptions({ interOpNumThreads: '2' }).length, 1);
  assert.equal(ignoredOrtOptions({ interOpNumThreads: '2', executionMode: 'parallel' }).length, 0);
});

test("every engine's tune grid holds only values its table accepts, the defaults first", async () => {
  const { tuneGrid, checkVariantId, variantId } = await import('../../src/core/engine-options.js');
  for (const id of ENGINE_IDS) {
    const grid = tuneGrid(id);
    assert.deepEqual(grid[0], {}, id);
    for (const values of grid.slice(1)) checkVariantId(variantId(id, values));
  }
  assert.ok(tuneGrid('onnx-cpu').some((v) => v['graphOptimizationLevel'] === 'disabled'));
});
