import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutFeeds, readHfFixture, maxDiffBetween } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const fixture = readHfFixture('roberta');
/** The fixture's 4 × 21 feeds and two other batch × sequence shapes, none of them the probe's. */
const shapes = [fixture.feeds, cutFeeds(fixture.feeds, 1, 7), cutFeeds(fixture.feeds, 3, 12)];

for (const [backend, executor] of [['cpu', 'graph-model'], ['node', 'saved-model']] as const) {
  test(`one ${executor} export runs at several batch sizes and sequence lengths, each matching onnx-cpu`, { skip: backend === 'node' ? await tfjsNodeSkip() : false }, async () => {
    for (const feeds of shapes) {
      const { outputs } = await nativeOutputs(fixture.onnxPath, backend, executor, feeds);
      const dims = feeds['input_ids']?.dims.join('×');
      const diff = maxDiffBetween(await onnxCpuOutputs(fixture.onnxPath, feeds), outputs);
      assert.ok(diff <= 1e-4, `${executor} at ${dims}: max |diff| ${diff}`);
    }
  });
}
