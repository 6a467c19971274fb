import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../../src/index.js';
import { useTestCache } from '../helpers/test-cache.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

useTestCache();

test('tfjs-node decodes the default decoder to the same tokens as onnx-cpu', { skip: await tfjsNodeSkip() }, async () => {
  const model = await defaultGenerator();
  const prompts = model.promptIds(['Great performances lift a fairly simple story.'], 8);
  const args = { input_ids: prompts, max_new_tokens: 6, min_new_tokens: 6 };
  const tokens: Record<string, number[]> = {};
  for (const engine of ['onnx-cpu', 'tfjs-node']) {
    const generator = await model.open(engine);
    try {
      assert.equal(generator.session.describe().engine, engine);
      tokens[engine] = Array.from((await generator.generate(args)).data, Number);
    } finally {
      await generator.session.dispose();
    }
  }
  assert.equal(tokens['onnx-cpu']?.length, 14);
  assert.deepEqual(tokens['tfjs-node'], tokens['onnx-cpu']);
});
