import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Engine, EngineTrainer } from '../../src/core/engine.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import type { TrainingCell } from '../../src/scenarios/train/training-results.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { runTrainingSweep } from '../../src/scenarios/train/training-sweep.js';
import { firstRows } from '../../src/scenarios/train/training-batches.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';

/** A trainer that fails like V8 does when an ArrayBuffer cannot be allocated, on batches of `oomAt` rows. */
function oomEngine(oomAt: number): Engine {
  return {
    id: 'mock-train',
    target: { family: 'tfjs', backend: 'cpu' },
    format: 'onnx',
    description: 'mock trainer',
    async probe() { return { available: true, versions: { mock: '1.0.0' } }; },
    async open() { throw new Error('inference not used here'); },
    async openTrainer(): Promise<EngineTrainer> {
      let step = 0;
      return {
        describe: () => ({ engine: 'mock-train', backend: 'mock', threads: 1, precision: 'fp32', versions: { mock: '1.0.0' } }),
        async step(_inputs, labels) {
          if (labels.length === oomAt) throw new RangeError('Array buffer allocation failed');
          return { loss: 1 / ++step, forwardMs: 1, backwardMs: 1, updateMs: 1 };
        },
        async reset() { step = 0; },
        async dispose() {},
      };
    },
  };
}

test('an out-of-memory batch is recorded on its cell (reason and outOfMemory) and the sweep goes on with the next batch size', async () => {
  const registry = new EngineRegistry({});
  registry.register(oomEngine(16));
  const model = await new TextClassification(join(HF_FIXTURES_DIR, 'bert')).init();
  const dataset = await openDataset();
  const columns = resolveColumns(await dataset.columns());
  const cells: TrainingCell[] = [];
  await runTrainingSweep({
    models: [model], engines: ['mock-train'], batchSizes: [16, 4], sequenceLengths: null,
    steps: 3, warmSteps: 1, rounds: 2, optimizer: 'sgd', learningRate: 0.01, threads: null,
    rows: await firstRows(dataset, 4 * 16), columns, registry,
    onCell: async (cell) => { cells.push(cell); },
  });
  assert.deepEqual(cells.map((c) => [c.batchSize, c.state]), [[16, 'errored'], [4, 'completed']]);
  const oom = cells[0];
  assert.ok(oom?.state === 'errored' && oom.outOfMemory === true);
  assert.match(oom.reason, /^out of memory: step 0 failed: Array buffer allocation failed/);
  const done = cells[1];
  assert.ok(done?.state === 'completed');
  assert.deepEqual(done.training.losses, [1, 1 / 2, 1 / 3, 1 / 4, 1, 1 / 2, 1 / 3, 1 / 4], 'both rounds ran from a reset trainer');
});
