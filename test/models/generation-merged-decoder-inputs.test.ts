import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scriptedGenerator } from '../helpers/generation.js';

test('merged decoders get use_cache_branch false for the prompt and true after, and num_logits_to_keep 1', async () => {
  const generator = scriptedGenerator([3, 4, 5], 64, { hasUseCacheBranch: true, hasNumLogitsToKeep: true });
  await generator.generate({ input_ids: [[1n, 2n]], max_new_tokens: 3 });
  const branches = generator.session.steps.map((s) => Array.from(s['use_cache_branch']?.data ?? [], Number));
  assert.deepEqual(branches, [[0], [1], [1]]);
  for (const step of generator.session.steps) {
    assert.deepEqual(step['num_logits_to_keep']?.dims, []);
    assert.deepEqual(Array.from(step['num_logits_to_keep']?.data ?? [], Number), [1]);
  }
  assert.equal(scriptedGenerator([3]).session.steps.length, 0);
  const plain = scriptedGenerator([3, 4]);
  await plain.generate({ input_ids: [[1n]], max_new_tokens: 2 });
  assert.ok(plain.session.steps.every((s) => !('use_cache_branch' in s) && !('num_logits_to_keep' in s)), 'graphs without them never get them');
});
