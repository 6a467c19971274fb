import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import type { TrainingRunRecord } from '../../../src/scenarios/train/training-results.js';
import { TRAINING_COLUMNS } from '../../../src/scenarios/train/training-files.js';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench train prints TRAIN – SPEED / MEMORY / LOSS, skips onnx-cpu with its reason, and records every step\'s loss (PyTorch\'s on the BERT fixture)', async () => {
  const out = testOutputDir('train-e2e');
  const model = join(HF_FIXTURES_DIR, 'bert');
  const r = await runCli(['train', '--model', model, '--engines', 'tfjs-cpu,tfjs-wasm,onnx-cpu', '--batch-sizes', '8', '--steps', '3', '--warm-steps', '1', '--rounds', '2', '--no-isolate', '--details', '--out', out], { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stderr);
  for (const title of ['TRAIN – SPEED', 'TRAIN – MEMORY', 'TRAIN – LOSS']) assert.ok(r.stdout.includes(title), `missing ${title}`);
  assert.match(r.stdout, /onnx-cpu .* skipped +onnxruntime-node has no training API/);
  assert.match(r.stdout, /samples\/s/);
  // Rounds interleave across engines (the second starts with the second engine), and progress says where each is.
  assert.match(r.stderr, /round 1\/2 tfjs-cpu batch 8\n {2}round 1\/2 tfjs-wasm batch 8\n(.*\n)*? {2}round 2\/2 tfjs-wasm batch 8\n/);

  const [runId] = readdirSync(out);
  const dir = join(out, runId ?? '');
  for (const f of ['results.json', 'results.csv', 'results.parquet', 'step-time.png']) assert.ok(existsSync(join(dir, f)), `${f} written`);
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as TrainingRunRecord;
  assert.equal(run.kind, 'train');
  assert.equal(run.state, 'completed');
  const onnx = run.cells.find((c) => c.engine === 'onnx-cpu');
  assert.equal(onnx?.state, 'skipped');
  // The PyTorch reference of this fixture: 5 SGD steps, lr 0.01, batch 8, the first rows in order.
  const reference = (JSON.parse(readFileSync(join(model, 'train-reference.json'), 'utf8')) as { losses: number[] }).losses;
  for (const engine of ['tfjs-cpu', 'tfjs-wasm']) {
    const cell = run.cells.find((c) => c.engine === engine);
    assert.equal(cell?.state, 'completed', JSON.stringify(cell));
    if (cell?.state !== 'completed') continue;
    const { losses, stepsPerRound } = cell.training;
    assert.equal(stepsPerRound, 4);
    assert.equal(losses.length, 2 * 4, 'every step of both rounds, warm steps included');
    assert.deepEqual(losses.slice(4), losses.slice(0, 4), 'each round restarts from the initial weights');
    losses.slice(0, 4).forEach((l, i) => assert.ok(Math.abs(l - (reference[i] as number)) <= 1e-4 * (reference[i] as number), `${engine} step ${i}: ${l} vs PyTorch ${reference[i]}`));
    assert.equal(cell.stepLog.filter((s) => s.warm).length, 2);
    assert.equal(cell.stepTime.count, 6, 'statistics over the measured steps only');
    assert.ok(cell.stepLog.every((s) => s.forwardMs !== null && s.backwardMs !== null && s.updateMs !== null), 'parts timed apart on tfjs');
    assert.ok(cell.engineBytes !== null && cell.engineBytes.after === cell.engineBytes.before, 'no tfjs bytes left behind by the steps');
    assert.ok(cell.engineBytes.peak > cell.engineBytes.before, 'the forward intermediates show in the in-step peak');
    assert.ok(cell.session.versions['@tensorflow/tfjs-core']);
  }
  const csv = readFileSync(join(dir, 'results.csv'), 'utf8');
  assert.ok(csv.startsWith(TRAINING_COLUMNS.join(',')));
  const rows = await parquetReadObjects({ file: new Uint8Array(readFileSync(join(dir, 'results.parquet'))).buffer });
  assert.equal(rows.length, 3);
});
