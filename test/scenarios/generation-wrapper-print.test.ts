import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { BenchmarkWrapper } from '../../src/scenarios/generate/benchmark-wrapper.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

test('BenchmarkWrapper prints the first-token and rest-token lines for the default decoder', async () => {
  const model = await defaultGenerator();
  after(() => model.dispose());
  const lines: string[] = [];
  const wrapped = new BenchmarkWrapper(model, { doPrint: true, verbose: true, print: (l) => lines.push(l), gpuMemory: false });
  after(() => wrapped.dispose());
  const input_ids = model.promptIds(['I loved the cinematography.'], 32);
  const output = (await wrapped.generate({ input_ids, max_new_tokens: 32, min_new_tokens: 32 })) as { dims: number[] };
  assert.deepEqual(output.dims, [1, 64], 'generate() returns what the model returns');
  assert.match(lines[0] ?? '', /^=========First token cost \d+\.\d{4}s and \d+\.\d{2} GB=========$/);
  assert.match(lines[1] ?? '', /^=========Rest tokens cost average \d+\.\d{4}s \(31 tokens in all\) and \d+\.\d{2} GB=========$/);
  assert.match(lines[2] ?? '', /^Peak RSS at each token, GB: \[(\d+\.\d{2}, ){31}\d+\.\d{2}\]$/);
  const m = wrapped.last;
  assert.ok(m);
  assert.equal(m.newTokens, 32);
  assert.equal(m.promptTokens, 32);
  assert.equal(m.restTokenMs.length, 31);
  assert.equal(m.rssBytesPerToken.length, 32);
  assert.ok(m.firstTokenMs > 0 && (m.restMeanMs ?? 0) > 0);
  assert.ok(m.peakRssBytes > 10 * 1024 * 1024, 'peak RSS is a real process size');
  assert.ok(Math.abs((m.decodeTokensPerSecond ?? 0) - 1000 / (m.restMeanMs ?? 1)) < 1e-6, 'decode tokens/s is the inverse of the mean rest-token time at batch 1');
  assert.ok(Math.abs(m.prefillTokensPerSecond - (32 * 1000) / m.firstTokenMs) < 1e-6);
  assert.equal(wrapped.firstCost, m.firstTokenMs / 1000);
});
