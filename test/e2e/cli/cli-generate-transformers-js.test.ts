import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { GenerationRunRecord } from '../../../src/scenarios/generate/generation-results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench generate --engines transformers-js completes cells through AutoModelForCausalLM.generate(), recording the device and dtype it used', async () => {
  const out = testOutputDir('generate-transformers-js');
  const r = await runCli(['generate', '--engines', 'transformers-js', '--batch-sizes', '1,2', '--prompt-lengths', '8', '--new-tokens', '4', '--runs', '2', '--rounds', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /Unsupported model type/);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as GenerationRunRecord;
  assert.equal(run.cells.length, 2);
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') continue;
    assert.ok(c.samples.every((s) => s.generatedTokens === 4 && s.restTokenMs.length === 3), 'every call generated the fixed 4 tokens');
    // Read back from the transformers.js session, not copied from the request.
    assert.equal(c.session.backend, 'onnxruntime-node cpu via transformers.js');
    assert.equal(c.session.precision, 'fp32');
    assert.ok(c.session.notes?.includes('dtype fp32 (model.onnx)'), JSON.stringify(c.session.notes));
    assert.ok(c.session.notes?.some((n) => n.includes('AutoModelForCausalLM.generate()')));
    assert.deepEqual(Object.keys(c.session.placement?.byProvider ?? {}), ['CPUExecutionProvider']);
  }
  const [header = '', ...rows] = readFileSync(join(out, runId ?? '', 'results.csv'), 'utf8').trim().split('\r\n');
  const column = header.split(',').indexOf('ep_nodes');
  assert.ok(column >= 0, 'ep_nodes column');
  for (const row of rows) assert.match(row.split(',')[column] ?? '', /^CPUExecutionProvider:\d+$/);
});
