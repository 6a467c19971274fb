/**
 * Point 9 of issue 22, generation: two generation runs are matched on the
 * threads each engine reported using, not the request, and cells left
 * without a match are named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedGenerationCell, GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import { computeStatistics } from '../../src/core/statistics.js';
import { pairGenerationCells, renderGenerationComparison } from '../../src/scenarios/generate/generation-comparison.js';
import { buildSampleRun } from '../helpers/sample-run.js';

function cell(requestedThreads: number | null, threads: number, ttftMs: number): CompletedGenerationCell {
  return {
    model: 'gpt', engine: 'onnx-cpu', batchSize: 1, promptLength: 8, newTokens: 4, requestedThreads,
    state: 'completed', session: { engine: 'onnx-cpu', backend: 'cpu', threads, precision: 'fp32', versions: {} }, openMs: 10, warmupRuns: 0,
    samples: [], ttft: computeStatistics([ttftMs]), tpot: computeStatistics([1]), decodeTokensPerSecond: 1000, prefillTokensPerSecond: 100,
    peakRssBytes: 1, peakGpuBytes: null, earlyStops: 0,
  } as CompletedGenerationCell;
}

function run(id: string, cells: CompletedGenerationCell[]): GenerationRunRecord {
  return { ...buildSampleRun(), id, cells } as unknown as GenerationRunRecord;
}

test('generation cells match on threads read back: a default run meets --threads 2 on 2 threads, and 1 thread never meets 2', () => {
  // A ran at the engine default, which was 2 threads here; B asked for 2 and for 1.
  const a = run('a', [cell(null, 2, 10)]);
  const b = run('b', [cell(2, 2, 11), cell(1, 1, 20)]);
  const pairs = pairGenerationCells(a, b);
  assert.equal(pairs.length, 1);
  assert.equal(pairs[0]?.b.requestedThreads, 2, 'matched with the cell that used 2 threads, not by the request');
  const text = renderGenerationComparison(a, b, pairs);
  assert.match(text, /engine +threads +batch/u);
  // The warning wraps at the report's prose width (issue 47): read it as one line.
  assert.match(text.replace(/\n/gu, ' '), /warning: only in B .*onnx-cpu batch 1 prompt 8 new 4 \(1 thread\)/u);

  // Requested the same, read back different: no match.
  assert.equal(pairGenerationCells(run('c', [cell(2, 2, 10)]), run('d', [cell(2, 1, 10)])).length, 0);
});
