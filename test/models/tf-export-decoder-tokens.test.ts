import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { useTestCache } from '../helpers/test-cache.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

useTestCache();
const nodeSkip = await tfjsNodeSkip();

/**
 * The default decoder names its mask length total_sequence_length (past +
 * sequence, as optimum and transformers.js do): the export has to run it at
 * a prefill (no past) and at every decode step after it.
 */
test('the default decoder exported as a GraphModel (and a SavedModel) decodes the same tokens as onnx-cpu, prefill and steps with past', async (t) => {
  const model = await defaultGenerator();
  const prompts = model.promptIds(['Great performances lift a fairly simple story.'], 8);
  const args = { input_ids: prompts, max_new_tokens: 5, min_new_tokens: 5 };
  const tokensOf = async (engine: string): Promise<number[]> => {
    const generator = await model.open(engine);
    try {
      return Array.from((await generator.generate(args)).data, Number);
    } finally {
      await generator.session.dispose();
    }
  };
  const reference = await tokensOf('onnx-cpu');
  assert.equal(reference.length, 13);
  assert.deepEqual(await tokensOf('tfjs-cpu-graph-model'), reference);
  await t.test('the SavedModel on tfjs-node decodes the same tokens', { skip: nodeSkip }, async () => {
    assert.deepEqual(await tokensOf('tfjs-node-saved-model'), reference);
  });
});
