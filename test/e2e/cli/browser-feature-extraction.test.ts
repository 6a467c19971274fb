import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const BROWSER = ['browser-transformers-js', 'browser-onnx-wasm'];

test('browser engines embed a sentence-transformers folder in Chromium: transformers.js builds the feature-extraction pipeline (it ran the classifier\'s), with cosine parity and the same STS Spearman as onnx-cpu', { skip: NO_CHROMIUM }, async () => {
  const out = testOutputDir('browser-fe');
  const r = await runCli([
    'run', '--model', ST, '--dataset', join(ST, 'sts.jsonl'), '--engines', ['onnx-cpu', ...BROWSER].join(','), '--batch-sizes', '2', '--limit', '8',
    '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  for (const c of run.cells) assert.equal(c.state, 'completed', `${c.engine}: ${JSON.stringify(c).slice(0, 400)}`);
  const cells = run.cells as CompletedCell[];
  const reference = cells.find((c) => c.engine === 'onnx-cpu');
  assert.ok(reference?.sts, 'onnx-cpu has an STS figure');
  for (const engine of BROWSER) {
    const c = cells.find((x) => x.engine === engine);
    assert.ok(c?.session.browser, `${engine} ran in the browser`);
    assert.ok(c.parity?.cosine && c.parity.cosine.min > 0.9999 && c.parity.withinTolerance, `${engine}: ${JSON.stringify(c.parity)}`);
    assert.equal(c.sts?.pairs, reference.sts.pairs);
    assert.ok(Math.abs((c.sts?.spearman ?? NaN) - (reference.sts.spearman ?? NaN)) < 0.005, `${engine}: Spearman ${c.sts?.spearman} vs onnx-cpu ${reference.sts.spearman}`);
  }
  const tjs = cells.find((c) => c.engine === 'browser-transformers-js');
  assert.ok(tjs?.session.notes?.some((n) => /\(feature-extraction pipeline\); pooling mean and L2 normalisation by the pipeline/.test(n)), JSON.stringify(tjs?.session.notes));
});
