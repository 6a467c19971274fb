import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runTimed, type EngineSession, type PreparedCall } from '../../src/core/engine-session.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('input wrapping and output read-back stay outside the timed region when a session prepares its calls', async () => {
  // A session that notes when its input conversion ends, its engine call starts and ends, and its output read-back starts.
  // The timed region must sit between the conversions: an order, whatever the machine's speed or load.
  const host: TensorMap = { x: { dtype: 'float32', dims: [1], data: new Float32Array([1]) } };
  const at = { prepared: NaN, callStart: NaN, callEnd: NaN, readBack: NaN };
  const slowConversions: EngineSession = {
    run: async () => host,
    prepareCall(): PreparedCall {
      at.prepared = performance.now();
      return {
        run: async () => {
          at.callStart = performance.now();
          await new Promise((r) => setTimeout(r, 5));
          at.callEnd = performance.now();
        },
        outputs: () => ((at.readBack = performance.now()), host),
      };
    },
    describe: () => ({ engine: 'fake', backend: 'cpu', threads: 1, precision: 'fp32', versions: {} }),
    dispose: async () => {},
  };
  const timed = await runTimed(slowConversions, host);
  assert.ok(timed.startedAt >= at.prepared, `feeds prepared before the clock starts (${at.prepared} ≤ ${timed.startedAt})`);
  assert.ok(timed.startedAt <= at.callStart && timed.endedAt >= at.callEnd, 'the engine call is inside the timed region');
  assert.ok(timed.endedAt <= at.readBack, `outputs read back after the clock stops (${timed.endedAt} ≤ ${at.readBack})`);
  assert.equal(timed.outputs, host, 'outputs read back after the clock');

  // onnx-cpu: a prepared call gives the same logits as run(), readable as a host Float32Array.
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const session = await createOnnxNodeEngine('cpu').open(join(dir, 'onnx', 'model.onnx'), { threads: 1, precision: 'fp32' });
  try {
    const ids = BigInt64Array.from([2n, 17n, 40n, 3n]);
    const inputs: TensorMap = {
      input_ids: { dtype: 'int64', dims: [1, 4], data: ids },
      attention_mask: { dtype: 'int64', dims: [1, 4], data: BigInt64Array.from([1n, 1n, 1n, 1n]) },
      token_type_ids: { dtype: 'int64', dims: [1, 4], data: new BigInt64Array(4) },
    };
    const plain = await session.run(inputs);
    assert.ok(session.prepareCall, 'onnx-cpu prepares its calls');
    const prepared = await runTimed(session, inputs);
    const logits = prepared.outputs['logits'];
    assert.ok(logits && logits.data instanceof Float32Array);
    assert.deepEqual(logits.dims, [1, 2]);
    assert.deepEqual([...logits.data], [...(plain['logits']?.data as Float32Array)]);
  } finally {
    await session.dispose();
  }
});
