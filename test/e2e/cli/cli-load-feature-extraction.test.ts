import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LoadRunRecord } from '../../../src/scenarios/load/load-results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');

test('inferbench load serves a sentence-transformers folder as feature extraction (pooled and normalised per request) on onnx-cpu and transformers-js', async () => {
  const out = testOutputDir('load-feature-extraction');
  const r = await runCli([
    'load', '--model', ST, '--dataset', join(ST, 'texts.jsonl'), '--engines', 'onnx-cpu,transformers-js', '--rates', '20',
    '--duration', '0.3', '--warmup', '0', '--min-queries', '5', '--max-batch', '2', '--max-wait', '5', '--no-png', '--no-isolate', '--out', out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /LATENCY UNDER LOAD/);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as LoadRunRecord;
  assert.ok(run.models[0]?.notes.includes('feature extraction: mean pooling, L2-normalised'), JSON.stringify(run.models[0]?.notes));
  assert.deepEqual(run.cells.map((c) => c.engine).sort(), ['onnx-cpu', 'transformers-js']);
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c).slice(0, 400));
    if (c.state !== 'completed') continue;
    assert.ok((c.session.notes ?? []).some((n) => n.startsWith('feature extraction: mean pooling, L2-normalised')), `${c.engine}: ${(c.session.notes ?? []).join(' | ')}`);
    const probe = c.probes[0];
    assert.ok(probe && probe.summary.requests >= 5, 'requests were served');
  }
});
