import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Every Node engine: ONNX Runtime, the tfjs translator, GraphModel and SavedModel executors, and transformers.js. */
const NODE_ENGINES = [
  'onnx-cpu', 'onnx-wasm', 'tfjs-node', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node-saved-model',
  'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js',
];

test('--config minilm (all-MiniLM-L6-v2\'s shape) runs as feature extraction on every Node engine, each cell with cosine parity above 0.9999 against onnx-cpu', async () => {
  const out = testOutputDir('fe-minilm-node');
  const r = await runCli([
    'run', '--config', 'minilm', '--engines', NODE_ENGINES.join(','), '--limit', '2', '--batch-sizes', '1,2',
    '--rounds', '1', '--warmup', '0', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--quiet', '--out', out,
  ], { timeoutMs: 600_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const model = run.models[0];
  assert.deepEqual(model?.architecture && { ...model.architecture }, { hidden: 384, layers: 6, heads: 12, intermediate: 1536, vocab: 30522, positions: 512 });
  assert.ok(model?.notes.includes('feature extraction: mean pooling, L2-normalised'), JSON.stringify(model?.notes));
  for (const c of run.cells) assert.equal(c.state, 'completed', `${c.engine} batch ${c.batchSize}: ${JSON.stringify(c).slice(0, 400)}`);
  const cells = run.cells as CompletedCell[];
  assert.deepEqual([...new Set(cells.map((c) => c.engine))].sort(), [...NODE_ENGINES].sort());
  assert.equal(cells.length, NODE_ENGINES.length * 2, 'every engine at batch 1 and 2');
  for (const c of cells) {
    assert.ok((c.session.notes ?? []).some((n) => n.startsWith('feature extraction: mean pooling, L2-normalised')), `${c.engine}: ${(c.session.notes ?? []).join(' | ')}`);
    if (c.engine === 'onnx-cpu') continue;
    assert.ok(c.parity?.cosine, `${c.engine} batch ${c.batchSize} has cosine parity`);
    assert.ok(c.parity.rows >= 1);
    assert.ok(c.parity.cosine.min > 0.9999 && c.parity.withinTolerance, `${c.engine} batch ${c.batchSize}: min cosine ${c.parity.cosine.min}`);
  }
});
