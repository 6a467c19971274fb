import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { tfjsNodeSkip } from '../../helpers/tfjs-node.js';

/** Every Node engine: ONNX Runtime, the tfjs translator, GraphModel and SavedModel executors, and transformers.js. */
const NODE_ENGINES = [
  'onnx-cpu', 'onnx-wasm', 'tfjs-node', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node-saved-model',
  'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js',
];

/** The Node engines that need tfjs-node, which `npm install` does not build (`npm run setup:tfjs-node` does, offline). */
const TFJS_NODE_ENGINES = ['tfjs-node', 'tfjs-node-saved-model', 'tfjs-node-graph-model'];

/**
 * One run of every Node engine this machine has, shared by the two tests:
 * without tfjs-node its three engines are left out of the run, and their
 * test says so with t.skip instead of failing a fresh clone's `npm test`.
 */
const shared = (async () => {
  const skip = await tfjsNodeSkip();
  const engines = NODE_ENGINES.filter((e) => skip === false || !TFJS_NODE_ENGINES.includes(e));
  const out = testOutputDir('fe-minilm-node');
  // Two short rows of unequal length (batch 2 still pads one and masks it in the mean pooling): the input's length is not
  // this test's subject, and tfjs-cpu's pure-JS matmul (two engines) costs in proportion to the tokens it runs.
  const dataset = join(out, 'short-texts.jsonl');
  writeFileSync(dataset, `${JSON.stringify({ text: 'so good' })}\n${JSON.stringify({ text: 'not bad at all, really' })}\n`);
  const r = await runCli([
    'run', '--config', 'minilm', '--engines', engines.join(','), '--dataset', dataset, '--limit', '2', '--batch-sizes', '1,2',
    '--rounds', '1', '--warmup', '0', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--quiet', '--out', out,
  ], { timeoutMs: 600_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history') && f !== 'short-texts.jsonl');
  return { skip, engines, run: JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord };
})();

/** Each of `engines`' cells: feature extraction, completed at batch 1 and 2, with cosine parity above 0.9999 against onnx-cpu. */
function assertEngines(run: RunRecord, engines: readonly string[]): void {
  const cells = run.cells.filter((c) => engines.includes(c.engine));
  for (const c of cells) assert.equal(c.state, 'completed', `${c.engine} batch ${c.batchSize}: ${JSON.stringify(c).slice(0, 400)}`);
  const completed = cells as CompletedCell[];
  assert.deepEqual([...new Set(completed.map((c) => c.engine))].sort(), [...engines].sort());
  assert.equal(completed.length, engines.length * 2, 'every engine at batch 1 and 2');
  for (const c of completed) {
    assert.ok((c.session.notes ?? []).some((n) => n.startsWith('feature extraction: mean pooling, L2-normalised')), `${c.engine}: ${(c.session.notes ?? []).join(' | ')}`);
    if (c.engine === 'onnx-cpu') continue;
    assert.ok(c.parity?.cosine, `${c.engine} batch ${c.batchSize} has cosine parity`);
    assert.ok(c.parity.rows >= 1);
    assert.ok(c.parity.cosine.min > 0.9999 && c.parity.withinTolerance, `${c.engine} batch ${c.batchSize}: min cosine ${c.parity.cosine.min}`);
  }
}

test('--config minilm (all-MiniLM-L6-v2\'s shape) runs as feature extraction on every Node engine that needs no tfjs-node, each cell with cosine parity above 0.9999 against onnx-cpu', async () => {
  const { run, engines } = await shared;
  const model = run.models[0];
  assert.deepEqual(model?.architecture && { ...model.architecture }, { hidden: 384, layers: 6, heads: 12, intermediate: 1536, vocab: 30522, positions: 512 });
  assert.ok(model?.notes.some((n) => n.startsWith('feature extraction: mean pooling, L2-normalised')), JSON.stringify(model?.notes));
  assert.deepEqual([...new Set(run.cells.map((c) => c.engine))].sort(), [...engines].sort(), 'the run holds exactly the engines asked for');
  assertEngines(run, NODE_ENGINES.filter((e) => !TFJS_NODE_ENGINES.includes(e)));
});

test('--config minilm runs as feature extraction on the three tfjs-node engines (TensorFlow kernels, GraphModel and SavedModel executors), with the same parity', async (t) => {
  const { run, skip } = await shared;
  if (skip !== false) return t.skip(skip);
  assertEngines(run, TFJS_NODE_ENGINES);
});
