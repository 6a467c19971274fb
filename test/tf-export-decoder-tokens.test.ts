import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../src/models/default-generator.js';
import { useTestCache } from './fixtures/test-cache.js';
import { tfjsNodeSkip } from './fixtures/tfjs-node.js';

useTestCache();
const nodeSkip = await tfjsNodeSkip();

/**
 * The default decoder names its mask length total_sequence_length (past +
 * sequence, as optimum and transformers.js do): the export has to run it at
 * a prefill (no past) and at every decode step after it.
 */
test('the default decoder exported as a GraphModel (and a SavedModel) decodes the same tokens as onnx-cpu, prefill and steps with past', async () => {
  const model = await defaultGenerator();
  const prompts = model.promptIds(['Great performances lift a fairly simple story.'], 8);
  const args = { input_ids: prompts, max_new_tokens: 5, min_new_tokens: 5 };
  const tokens: Record<string, number[]> = {};
  for (const engine of ['onnx-cpu', 'tfjs-cpu-graph-model', ...(nodeSkip ? [] : ['tfjs-node-saved-model'])]) {
    const generator = await model.load(engine);
    try {
      tokens[engine] = Array.from((await generator.generate(args)).data, Number);
    } finally {
      await generator.session.dispose();
    }
  }
  assert.equal(tokens['onnx-cpu']?.length, 13);
  assert.deepEqual(tokens['tfjs-cpu-graph-model'], tokens['onnx-cpu']);
  if (!nodeSkip) assert.deepEqual(tokens['tfjs-node-saved-model'], tokens['onnx-cpu']);
});
