import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { resolveColumns } from '../../datasets/columns.js';
import { firstRows, trainingBatches } from '../../src/scenarios/train/training-batches.js';
import { HF_FIXTURES_DIR } from '../helpers/hf-fixtures.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

test('tfjs-node trains the BERT fixture with PyTorch\'s losses (5 SGD steps, 1e-4 relative) and times forward, backward and update apart', { skip: await tfjsNodeSkip() }, async () => {
  const dir = join(HF_FIXTURES_DIR, 'bert');
  const ref = JSON.parse(readFileSync(join(dir, 'train-reference.json'), 'utf8')) as { losses: number[]; batch_size: number; steps: number; learning_rate: number };
  const model = await new TextClassification(dir).init();
  const dataset = await openDataset();
  const rows = await firstRows(dataset, ref.steps * ref.batch_size);
  const batches = await trainingBatches(model, rows, resolveColumns(await dataset.columns()), model.labels, ref.batch_size, ref.steps);
  const engine = createTfjsEngine('node');
  assert.ok(engine.openTrainer);
  const trainer = await engine.openTrainer(model.onnxPath(), { threads: null, precision: 'fp32', optimizer: 'sgd', learningRate: ref.learning_rate });
  try {
    assert.equal(trainer.describe().engine, 'tfjs-node');
    for (const [i, b] of batches.entries()) {
      const r = await trainer.step(b.inputs, b.labels);
      const want = ref.losses[i] as number;
      assert.ok(Math.abs(r.loss - want) <= 1e-4 * want, `step ${i}: ${r.loss} vs PyTorch ${want}`);
      assert.ok(r.forwardMs !== null && r.backwardMs !== null && r.updateMs !== null && r.forwardMs > 0 && r.backwardMs > 0);
    }
  } finally {
    await trainer.dispose();
  }
});
