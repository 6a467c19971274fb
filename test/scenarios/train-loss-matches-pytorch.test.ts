import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { TfjsTrainer } from '../../engines/tfjs/tfjs-trainer.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { firstRows, trainingBatches } from '../../src/scenarios/train/training-batches.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';

/** What tools/export-hf-fixtures.py --train-losses-only records per classifier fixture. */
interface TrainReference {
  readonly learning_rate: number;
  readonly batch_size: number;
  readonly steps: number;
  readonly trainable_initializers: string[];
  readonly batches: { labels: number[]; input_ids: { dims: number[]; data: number[] } }[];
  readonly losses: number[];
}

const RELATIVE = 1e-4;

for (const arch of ['bert', 'distilbert', 'roberta', 'albert', 'electra']) {
  for (const backend of ['cpu', 'wasm'] as const) {
    test(`${arch} on tfjs-${backend}: 5 SGD steps give PyTorch's losses within ${RELATIVE} relative, training exactly torch's parameters`, async (t) => {
      const dir = join(HF_FIXTURES_DIR, arch);
      const ref = JSON.parse(readFileSync(join(dir, 'train-reference.json'), 'utf8')) as TrainReference;
      const model = await new TextClassification(dir).init();
      const dataset = await openDataset();
      const columns = resolveColumns(await dataset.columns());
      const rows = await firstRows(dataset, ref.steps * ref.batch_size);
      const batches = await trainingBatches(model, rows, columns, model.labels, ref.batch_size, ref.steps);
      batches.forEach((b, i) => {
        const expected = ref.batches[i];
        assert.deepEqual([...b.labels], expected?.labels, `step ${i}: labels`);
        const ids = b.inputs['input_ids'];
        assert.deepEqual(ids?.dims, expected?.input_ids.dims, `step ${i}: input_ids dims`);
        assert.deepEqual(Array.from(ids?.data as BigInt64Array, Number), expected?.input_ids.data, `step ${i}: input_ids`);
      });
      const engine = createTfjsEngine(backend);
      assert.ok(engine.openTrainer, 'tfjs engines can train');
      const trainer = (await engine.openTrainer(model.onnxPath(), {
        threads: null, precision: 'fp32', optimizer: 'sgd', learningRate: ref.learning_rate,
      })) as TfjsTrainer;
      try {
        assert.deepEqual(trainer.trainableNames().sort(), [...ref.trainable_initializers].sort(), 'trainable initializers = torch parameters');
        const losses: number[] = [];
        for (const b of batches) losses.push((await trainer.step(b.inputs, b.labels)).loss);
        losses.forEach((loss, i) => {
          const want = ref.losses[i] as number;
          assert.ok(Math.abs(loss - want) <= RELATIVE * Math.abs(want), `${arch} tfjs-${backend} step ${i}: loss ${loss}, PyTorch ${want}`);
        });
        t.diagnostic(`${arch} tfjs-${backend} losses ${losses.map((l) => l.toFixed(6)).join(' ')} (PyTorch ${ref.losses.map((l) => l.toFixed(6)).join(' ')})`);
      } finally {
        await trainer.dispose();
      }
    });
  }
}
