import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BenchmarkWrapper } from '../../src/scenarios/generate/benchmark-wrapper.js';
import { SCRIPT_EOS, scriptedGenerator, streamingModel } from '../helpers/generation.js';

test('counts come from the tokens actually generated when generation stops early', async () => {
  const lines: string[] = [];
  const wrapped = new BenchmarkWrapper(streamingModel(3), { doPrint: true, print: (l) => lines.push(l), gpuMemory: false });
  await wrapped.generate({ input_ids: [[5n, 6n]], max_new_tokens: 10 });
  assert.equal(wrapped.last?.newTokens, 3);
  assert.equal(wrapped.last?.restTokenMs.length, 2);
  assert.match(lines[1] ?? '', /\(2 tokens in all\)/);

  // A single token leaves no rest tokens: the line says so instead of dividing by zero.
  await new BenchmarkWrapper(streamingModel(1), { doPrint: true, print: (l) => lines.push(l), gpuMemory: false }).generate({ input_ids: [[5n]], max_new_tokens: 10 });
  assert.match(lines.at(-1) ?? '', /^=========Rest tokens cost average n\/a \(0 tokens in all\) and n\/a GB=========$/);
});

test('the greedy loop stops at EOS, unless min_new_tokens holds it back', async () => {
  const script = [3, 4, SCRIPT_EOS, 5, 6, 7];
  const early = await new BenchmarkWrapper(scriptedGenerator(script), { gpuMemory: false }).measure({ input_ids: [[1n, 2n]], max_new_tokens: 6 });
  assert.equal(early.measurement.newTokens, 3, 'EOS at step 3 ends generation');
  assert.deepEqual(Array.from((early.output as { data: BigInt64Array }).data, Number), [1, 2, 3, 4, SCRIPT_EOS]);

  const fixed = await new BenchmarkWrapper(scriptedGenerator(script), { gpuMemory: false }).measure({ input_ids: [[1n, 2n]], max_new_tokens: 6, min_new_tokens: 6 });
  assert.equal(fixed.measurement.newTokens, 6, 'minNewTokens = maxNewTokens fixes the output length');
  const tokens = Array.from((fixed.output as { data: BigInt64Array }).data, Number);
  assert.ok(!tokens.slice(2).includes(SCRIPT_EOS), `EOS was suppressed: ${tokens.join(',')}`);
});

test('the greedy loop feeds the cache back and grows the mask and positions one token per step', async () => {
  const generator = scriptedGenerator([3, 4, 5]);
  await generator.generate({ input_ids: [[1n, 2n]], max_new_tokens: 3 });
  const steps = generator.session.steps;
  assert.equal(steps.length, 3);
  assert.deepEqual(steps[0]?.['past_key_values.0.key']?.dims, [1, 1, 0, 1], 'empty cache first');
  assert.deepEqual(steps[2]?.['past_key_values.0.key']?.dims, [1, 1, 3, 1], 'presents come back as past');
  assert.deepEqual(Array.from(steps[2]?.['input_ids']?.data ?? [], Number), [4]);
  assert.deepEqual(Array.from(steps[2]?.['position_ids']?.data ?? [], Number), [3]);
  assert.deepEqual(steps[2]?.['attention_mask']?.dims, [1, 4]);
});
