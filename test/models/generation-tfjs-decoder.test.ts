import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

test('the translated tfjs engines decode the default decoder to the same tokens as onnx-cpu', async () => {
  const model = await defaultGenerator();
  const prompts = model.promptIds(['Great performances lift a fairly simple story.'], 8);
  const args = { input_ids: prompts, max_new_tokens: 6, min_new_tokens: 6 };
  const tokens: Record<string, number[]> = {};
  for (const engine of ['onnx-cpu', 'tfjs-cpu', 'tfjs-wasm']) {
    const generator = await model.open(engine);
    try {
      tokens[engine] = Array.from((await generator.generate(args)).data, Number);
    } finally {
      await generator.session.dispose();
    }
  }
  assert.equal(tokens['onnx-cpu']?.length, 14);
  assert.deepEqual(tokens['tfjs-cpu'], tokens['onnx-cpu']);
  assert.deepEqual(tokens['tfjs-wasm'], tokens['onnx-cpu']);
});
