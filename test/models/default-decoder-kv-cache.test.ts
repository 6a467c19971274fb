import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { positionIds } from '../../src/models/greedy-loop.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

const ids = (rows: bigint[][]) => ({ dtype: 'int64' as const, dims: [rows.length, rows[0]?.length ?? 0], data: BigInt64Array.from(rows.flat()) });

test('the default decoder gives the same last-token logits with its KV cache as without it', async () => {
  const model = await defaultGenerator();
  const { session } = await model.open('onnx-cpu');
  after(() => session.dispose());
  const [prompt] = model.promptIds(['The soundtrack made my day, honestly.'], 10) as [bigint[]];
  const emptyPast = (): TensorMap => Object.fromEntries(model.decoder.pastNames.map((n) => [n, { dtype: 'float32' as const, dims: [1, model.decoder.kvHeads, 0, model.decoder.headDim], data: new Float32Array(0) }]));
  const full = await session.run({ input_ids: ids([prompt]), attention_mask: ids([prompt.map(() => 1n)]), position_ids: ids([positionIds([prompt.map(() => 1n)], 10)]), ...emptyPast() });

  const head = prompt.slice(0, 9);
  const first = await session.run({ input_ids: ids([head]), attention_mask: ids([head.map(() => 1n)]), position_ids: ids([positionIds([head.map(() => 1n)], 9)]), ...emptyPast() });
  const past: TensorMap = {};
  for (const [name, t] of Object.entries(first)) if (name.startsWith('present')) past[name.replace('present', 'past_key_values')] = t;
  assert.deepEqual(first['present.0.key']?.dims, [1, model.decoder.kvHeads, 9, model.decoder.headDim]);
  const step = await session.run({ input_ids: ids([[prompt[9] as bigint]]), attention_mask: ids([prompt.map(() => 1n)]), position_ids: ids([[9n]]), ...past });

  const vocab = full['logits']?.dims[2] as number;
  const fromFull = (full['logits']?.data as Float32Array).subarray(9 * vocab, 10 * vocab);
  const fromCache = step['logits']?.data as Float32Array;
  assert.deepEqual(step['logits']?.dims, [1, 1, vocab]);
  let maxDiff = 0;
  for (let i = 0; i < vocab; i++) maxDiff = Math.max(maxDiff, Math.abs((fromFull[i] as number) - (fromCache[i] as number)));
  assert.ok(maxDiff < 1e-4, `cached and uncached logits differ by ${maxDiff}`);
  assert.deepEqual(step['present.1.value']?.dims, [1, model.decoder.kvHeads, 10, model.decoder.headDim]);
});
