import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['browser-onnx-wasm', 'browser-tfjs-wasm', 'browser-tfjs-webgl', 'browser-transformers-js'];

test('browser engines run in headless Chromium with parity against onnx-cpu, threads, renderer and version read back', { skip: NO_CHROMIUM }, async () => {
  const out = testOutputDir('browser-e2e');
  // Browser groups run in Chromium whatever --no-isolate says; it keeps only the onnx-cpu reference in this process (isolation is not the subject).
  const args = ['run', '--details', '--engines', ENGINES.join(','), '--batch-sizes', '1', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out];
  const r = await runCli(args, { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.cells.length, ENGINES.length);
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') continue;
    const b = c.session.browser;
    assert.ok(b, `${c.engine}: no browser read-back`);
    assert.match(b.browser, /^Chromium \d+\./);
    assert.equal(b.crossOriginIsolated, true, 'the loopback page must be cross-origin isolated (COOP/COEP)');
    assert.match(b.webglRenderer ?? '', /SwiftShader/, 'the renderer is named, and here it is SwiftShader');
    assert.ok(b.coldStart.pageLoadMs > 0 && b.coldStart.sessionBuildMs > 0);
    assert.equal(c.parity?.reference, 'onnx-cpu');
    // The memory columns are the renderer's, not this Node driver's: a different process, named with its pid.
    assert.equal(c.memory?.process?.label, 'Chromium renderer', c.memory?.process?.detail);
    const pid = Number(/pid (\d+)/.exec(c.memory?.process?.detail ?? '')?.[1]);
    assert.ok(Number.isInteger(pid) && pid !== process.pid, c.memory?.process?.detail);
    if (c.engine === 'browser-tfjs-webgl') {
      // A GPU backend has no thread count: null, with the renderer and texture precision in its notes.
      assert.equal(c.session.threads, null);
      assert.ok(c.session.notes?.some((n) => /WebGL 2 textures float(32|16)/.test(n)));
    } else {
      assert.ok(typeof c.session.threads === 'number' && c.session.threads >= 1, `${c.engine}: threads read back`);
      assert.ok((c.parity?.maxAbsDiff ?? Infinity) <= 1e-4, `${c.engine}: parity ${c.parity?.maxAbsDiff}`);
    }
  }
  assert.match(r.stdout, /SwiftShader/, 'the terminal report names the renderer');
});
