import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ort from 'onnxruntime-node';
import { CPU_PROVIDER, dummyFeeds, profilePlacement, type OrtNodeLike } from '../../engines/onnx/ort-placement.js';
import { join } from 'node:path';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';

const DECODER_INPUTS = [
  { name: 'input_ids', isTensor: true, type: 'int64', shape: ['batch', 'sequence'] },
  { name: 'attention_mask', isTensor: true, type: 'int64', shape: ['batch', 'past_sequence + sequence'] },
  { name: 'past_key_values.0.key', isTensor: true, type: 'float32', shape: ['batch', 2, 'past_sequence', 16] },
  { name: 'past_key_values.0.value', isTensor: true, type: 'float32', shape: [-1, 2, -1, 16] },
] as const;

test("the placement pass's dummy mask covers the new token, so a decoder's mask is never zero-length", () => {
  const feeds = dummyFeeds(ort.Tensor as never, DECODER_INPUTS as never);
  const dims = Object.fromEntries(Object.entries(feeds).map(([name, t]) => [name, [...(t as unknown as { dims: number[] }).dims]]));
  assert.deepEqual(dims, {
    input_ids: [1, 1],
    attention_mask: [1, 1],
    'past_key_values.0.key': [1, 2, 0, 16],
    'past_key_values.0.value': [1, 2, 0, 16],
  });
  const withPast = dummyFeeds(ort.Tensor as never, DECODER_INPUTS as never, 1);
  assert.deepEqual([...(withPast['attention_mask'] as unknown as { dims: number[] }).dims], [1, 2]);
});

test('the placement of the gpt2-past decoder is read (its dummy run succeeds)', async () => {
  const placement = await profilePlacement(ort as unknown as OrtNodeLike, join(HF_FIXTURES_DIR, 'gpt2-past', 'onnx', 'model.onnx'), {}, CPU_PROVIDER);
  assert.ok(placement, 'a placement');
});
