import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HeadlineFigure, HistoryEntry } from '../../src/runs/history/history-entry.js';
import { headlineText } from '../../src/runs/history/entry-summary.js';

/** An entry as the history list reads it: only its config, models, state and best cell matter here. */
function entry(config: object, headline: HeadlineFigure, models: readonly string[] = ['tiny']): HistoryEntry {
  return { config, models, state: 'completed', headline } as unknown as HistoryEntry;
}

const best: HeadlineFigure = { model: 'tiny', engine: 'onnx-cpu', batchSize: 4, requestedThreads: 2, sequenceLength: null, host: null, samplesPerSecond: 1234.5 };

test("the history list phrases a load entry's best cell as its scenario says: requests/s, its batcher's largest batch and its threads", () => {
  assert.equal(headlineText(entry({ command: 'load', models: ['tiny'] }, best)), 'onnx-cpu 1.23k req/s, batches ≤ 4, 2 threads');
  assert.equal(headlineText(entry({ command: 'load', models: ['tiny'] }, { ...best, batchSize: 1, requestedThreads: null, host: 'w1' })), 'onnx-cpu @ w1 1.23k req/s');
});

test("a scenario with no phrase of its own gets items/s at the best cell's batch size, threads and sequence length, led by the model row when there are several", () => {
  assert.equal(headlineText(entry({ models: ['tiny'] }, best)), 'onnx-cpu 1.23k items/s at batch 4, 2 threads');
  assert.equal(headlineText(entry({ command: 'train', models: ['a', 'b'] }, { ...best, model: 'a · q8', sequenceLength: 8 }, ['a', 'b'])), 'a · q8: onnx-cpu 1.23k items/s at batch 4, 2 threads, seq 8');
});
