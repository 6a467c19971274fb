import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { AutoModelForCausalLM, env, Tensor } from '@huggingface/transformers';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();
const NEW_TOKENS = 16;

/** Rows of a [batch, length] int64 tensor (either library's) as arrays of numbers. */
function rowsOf(t: { dims: readonly number[]; data: ArrayLike<bigint | number> }): number[][] {
  const [batch, length] = t.dims as [number, number];
  return Array.from({ length: batch }, (_, b) => Array.from({ length }, (_, i) => Number(t.data[b * length + i])));
}

test('the harness greedy loop on onnx-cpu generates exactly what transformers.js generate() does', async () => {
  const model = await defaultGenerator();
  env.allowRemoteModels = false;
  const tjs = await AutoModelForCausalLM.from_pretrained(model.dir, { local_files_only: true });
  const harness = await model.open('onnx-cpu');
  after(async () => {
    await tjs.dispose();
    await harness.session.dispose();
  });
  const prompts = model.promptIds(['I loved the cinematography.', 'What a sad app! Nothing about customer support worked for me.'], 12);
  // A second batch, left-padded: the second row has 5 padding positions (mask 0), the case where positions and masks must match exactly.
  const padded = prompts.map((row, b) => (b === 1 ? [...new Array<bigint>(5).fill(0n), ...row.slice(5)] : row));
  const paddedMask = padded.map((_, b) => Array.from({ length: 12 }, (_, i) => (b === 1 && i < 5 ? 0n : 1n)));
  for (const [ids, mask] of [
    [prompts, prompts.map((r) => r.map(() => 1n))],
    [padded, paddedMask],
  ] as const) {
    const tensor = (rows: readonly (readonly bigint[])[]) => new Tensor('int64', BigInt64Array.from(rows.flat()), [rows.length, 12]);
    const expected = (await tjs.generate({
      input_ids: tensor(ids),
      attention_mask: tensor(mask),
      max_new_tokens: NEW_TOKENS,
      min_new_tokens: NEW_TOKENS,
      do_sample: false,
    })) as Tensor;
    const actual = await harness.generate({ input_ids: ids, attention_mask: mask, max_new_tokens: NEW_TOKENS, min_new_tokens: NEW_TOKENS });
    assert.deepEqual(actual.dims, [2, 12 + NEW_TOKENS]);
    assert.deepEqual(rowsOf(actual), rowsOf(expected as unknown as { dims: number[]; data: BigInt64Array }), 'token-for-token equality');
  }
});
