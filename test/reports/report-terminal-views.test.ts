import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { NOISY_CELL, buildSweepRun } from '../helpers/sweep-run.js';

test('terminal report shows statistics with CI and verdict, core and batch scaling, memory growth and cold start', () => {
  const text = renderTerminalReport(buildSweepRun(), { details: true });
  for (const title of ['INFERENCE – LATENCY STATISTICS', 'CORE SCALING – batch 32', 'BATCH SCALING – 1 thread', 'MEMORY – GROWTH', 'COLD START']) {
    assert.ok(text.includes(title), `missing ${title}`);
  }
  // n, mean, CI, then p50, p90, p95, p99, min, max (ms), stdev (µs), cv and verdict.
  assert.match(text, /engine +threads +batch +n +mean +95% CI of mean +p50 +p90 +p95 +p99 +min +max +stdev +cv +verdict/u);
  assert.match(text, /onnx-cpu +1 +8 +12 +30\.4 ms +29\.8 – 31\.0 ms( +\S+ ms){6} +\S+ µs +2\.90% +VALID/u);
  assert.match(text, /onnx-wasm +4 +1 +96 +5\.34 ms .* 20\.9% +NOISY/u);
  assert.ok(text.includes(`NOISY onnx-wasm (4 threads), batch 1: ${NOISY_CELL.reasons.join('; ')}`));
  // Core scaling: samples/s, speed-up and efficiency against threads; gaps keep their reason.
  assert.match(text, /onnx-cpu +4 +4 +928\/s +3\.2× +81\.2% +36\.6 ms/u);
  assert.match(text, /onnx-wasm +4 +errored: RangeError/u);
  assert.match(text, /tfjs-wasm +2 +skipped: tfjs-wasm is single-threaded/u);
  // Batch scaling: samples/s and p99 against batch size at the fixed thread count.
  assert.match(text, /tfjs-wasm +8 +1 +195\/s +1\.8× +41\.0 ms +42\.4 ms +✗ PARITY/u);
  // Memory growth over the post-open baseline, the sampling rate, and tfjs's own count.
  assert.match(text, /tfjs-wasm +1 +32 +327 MiB +379 MiB +\+52\.0 MiB +189 Hz +212 +18\.8 MiB/u);
  // Cold start apart from the steady state, with warmup reported apart too.
  assert.match(text, /onnx-cpu +4 +32 +240 ms +145 ms +3 batches +64\.1 ms +34\.5 ms/u);

  const old = renderTerminalReport(buildSampleRun(), { details: true });
  assert.ok(old.includes('Core scaling not shown: core scaling needs 2 or more thread counts'));
  assert.ok(old.includes('BATCH SCALING – engine-default threads'));
  assert.ok(!old.includes('MEMORY – GROWTH'), 'no memory detail without memory figures');
  assert.ok(!old.includes('OUTPUT PARITY'), 'no parity table without parity figures');
  assert.ok(!/ verdict\b/u.test(old), 'no verdict column without verdicts');
});
