/**
 * Point 11 of issue 22, generation: a cell's peak RSS keeps the exact
 * reading taken when each call returned, not only the per-token readings,
 * which may be up to 2 ms old.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeGenerationCell } from '../../src/scenarios/generate/generation-sweep.js';

test('the peak includes the exact end-of-call reading above every per-token one', () => {
  const key = { model: 'gpt', engine: 'onnx-cpu', batchSize: 1, promptLength: 8, newTokens: 2, requestedThreads: null };
  const sample = (perToken: number[], exact: number) => ({
    firstTokenMs: 5, restTokenMs: [1], totalMs: 6, generatedTokens: 2, rssBytesPerToken: perToken, peakRssBytes: exact, peakRssScope: 'since-reset' as const, gpuBytesPerToken: null,
  });
  const cell = summarizeGenerationCell(key, [sample([100, 200], 260), sample([150, 210], 220)]);
  assert.equal(cell.peakRssBytes, 260);
});
