import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Engine, EngineTrainer } from '../../src/core/engine.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';
import type { TrainingCell } from '../../src/scenarios/train/training-results.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { runTrainingSweep } from '../../src/scenarios/train/training-sweep.js';
import { firstRows } from '../../src/scenarios/train/training-batches.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';

/**
 * `train` measures in interleaved rounds like `run`: every round opens each
 * engine afresh, in an order rotated by the round, so minute-to-minute drift
 * on a shared machine falls on every engine alike; the interval is across
 * round means, and cells are recorded in sweep order.
 */
function loggedTrainer(id: string, opens: string[], stepMs: () => number): Engine {
  return {
    id,
    target: { family: 'tfjs', backend: 'cpu' },
    format: 'onnx',
    description: `logged trainer ${id}`,
    async probe() { return { available: true, versions: { mock: '1.0.0' } }; },
    async open() { throw new Error('inference not used here'); },
    async openTrainer(): Promise<EngineTrainer> {
      opens.push(id);
      let step = 0;
      return {
        describe: () => ({ engine: id, backend: 'mock', threads: 1, precision: 'fp32', versions: { mock: '1.0.0' } }),
        async step() {
          const until = performance.now() + stepMs();
          while (performance.now() < until) { /* a step that takes a known time */ }
          return { loss: 1 / ++step, forwardMs: null, backwardMs: null, updateMs: null };
        },
        async reset() { step = 0; },
        async dispose() {},
      };
    },
  };
}

test('training rounds are interleaved across engines, rotated each round, with the interval across round means', async () => {
  const opens: string[] = [];
  const registry = new EngineRegistry({});
  for (const id of ['a', 'b', 'c']) registry.register(loggedTrainer(id, opens, () => 1));
  const model = await new TextClassification(join(HF_FIXTURES_DIR, 'bert')).init();
  const dataset = await openDataset();
  const columns = resolveColumns(await dataset.columns());
  const cells: TrainingCell[] = [];
  const starts: string[] = [];
  await runTrainingSweep({
    models: [model], engines: ['a', 'b', 'c'], batchSizes: [2, 4], sequenceLengths: null,
    steps: 3, warmSteps: 1, rounds: 3, optimizer: 'sgd', learningRate: 0.01, threads: null,
    rows: await firstRows(dataset, 4 * 4), columns, registry,
    onProgress: (e) => { if (e.kind === 'cell-start') starts.push(`${e.round}:${e.key.engine}/${e.key.batchSize}`); },
    onCell: async (cell) => { cells.push(cell); },
  });
  assert.deepEqual(opens, ['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b'], 'round r starts at engine r, each a fresh open');
  assert.deepEqual(starts.slice(6, 8), ['1:b/2', '1:b/4']);
  assert.deepEqual(cells.map((c) => `${c.engine}/${c.batchSize}`), ['a/2', 'a/4', 'b/2', 'b/4', 'c/2', 'c/4'], 'recorded in sweep order');
  for (const cell of cells) {
    assert.ok(cell.state === 'completed', JSON.stringify(cell));
    assert.equal(cell.rounds, 3);
    assert.deepEqual(cell.stepLog.map((s) => s.round), [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    assert.deepEqual(cell.training.losses, [1, 1 / 2, 1 / 3, 1 / 4, 1, 1 / 2, 1 / 3, 1 / 4, 1, 1 / 2, 1 / 3, 1 / 4], 'each round from the initial weights');
    const means = [0, 1, 2].map((r) => computeStatistics(cell.stepLog.filter((s) => s.round === r && !s.warm).map((s) => s.stepMs)).mean);
    assert.deepEqual(cell.betweenRounds, betweenRoundsOf(means));
  }
});

test('Ctrl-C between rounds keeps the rounds measured, flagged interrupted, and never calls the cell VALID', async () => {
  const opens: string[] = [];
  const controller = new AbortController();
  const registry = new EngineRegistry({});
  registry.register(loggedTrainer('a', opens, () => 0.2));
  // b's open in round 1 is where the user presses Ctrl-C.
  registry.register(loggedTrainer('b', opens, () => {
    if (opens.filter((l) => l === 'b').length === 2) controller.abort();
    return 0.2;
  }));
  const model = await new TextClassification(join(HF_FIXTURES_DIR, 'bert')).init();
  const dataset = await openDataset();
  const cells: TrainingCell[] = [];
  await runTrainingSweep({
    models: [model], engines: ['a', 'b'], batchSizes: [2], sequenceLengths: null,
    steps: 2, warmSteps: 0, rounds: 3, optimizer: 'sgd', learningRate: 0.01, threads: null,
    rows: await firstRows(dataset, 4), columns: resolveColumns(await dataset.columns()), registry, signal: controller.signal,
    onCell: async (cell) => { cells.push(cell); },
  });
  assert.deepEqual(opens, ['a', 'b', 'b'], 'no round starts after Ctrl-C');
  assert.deepEqual(cells.map((c) => [c.engine, c.state, c.state === 'completed' ? c.rounds : null]), [['a', 'completed', 1], ['b', 'completed', 2]]);
  for (const c of cells) assert.ok(c.state === 'completed' && c.verdict.status !== 'VALID', JSON.stringify(c.state === 'completed' ? c.verdict : c));
});
