import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('MODEL SIZE: each precision row names the file it loads, says how inferbench quantized it, and why q4 is larger than q8 on the small default model', async () => {
  const out = testOutputDir('model-size-variant-notes');
  // Twice: the first run may write the variant files, the second finds them there; both must say the same.
  for (const round of [1, 2]) {
    const r = await runCli(['run', '--engines', 'onnx-cpu', '--dtype', 'fp32,q8,q4', '--batch-sizes', '1', '--limit', '4', '--rounds', '1', '--min-time', '0', '--reference', 'none', '--no-png', '--no-isolate', '--out', out, '--details']);
    assert.equal(r.code, 0, r.stderr);
    const runId = readdirSync(out).filter((f) => f !== 'history.duckdb').sort().at(-1) ?? '';
    const run = JSON.parse(readFileSync(join(out, runId, 'results.json'), 'utf8')) as RunRecord;
    const row = (dtype: string) => run.models.find((m) => m.variant?.dtype === dtype);
    const [fp32, q8, q4] = [row('fp32'), row('q8'), row('q4')];
    assert.match(fp32?.source ?? '', /onnx\/model\.onnx$/, `round ${round}`);
    assert.match(q8?.source ?? '', /onnx\/model_quantized\.onnx$/, `round ${round}: q8 names its own file`);
    assert.match(q4?.source ?? '', /onnx\/model_q4\.onnx$/, `round ${round}: q4 names its own file`);
    assert.ok(q8?.notes.some((n) => /^quantized by inferbench: dynamic uint8/.test(n)), `round ${round}: ${q8?.notes.join(' | ')}`);
    assert.ok(q4?.notes.some((n) => /^quantized by inferbench: MatMulNBits/.test(n)), `round ${round}: ${q4?.notes.join(' | ')}`);
    assert.ok((q4?.sizeBytes ?? 0) > (q8?.sizeBytes ?? 0), 'the default model is small enough for q4 to be larger');
    const why = q4?.notes.find((n) => n.startsWith('larger than q8')) ?? '';
    assert.match(why, /though 4-bit: .* of its weights are float32 against .* in q8 \(.* are embedding tables, read by Gather and left float32, which q8 quantizes; .* are the scales of its weight blocks\)/, `round ${round}: ${q4?.notes.join(' | ')}`);
    assert.match(r.stdout, /larger than q8/, 'MODEL SIZE prints it');
  }
});
