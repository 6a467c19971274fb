import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_FIREFOX, NO_WEBKIT } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test("Firefox's WebGPU opt-in runs the WebGPU engines with the adapter read back and labelled; WebKit and Firefox as shipped say why they cannot", { skip: NO_FIREFOX || NO_WEBKIT }, async () => {
  const out = testOutputDir('browsers-firefox-webgpu');
  const args = ['run', '--model', 'test/data/hf/bert', '--engines', 'onnx-cpu,browser-onnx-webgpu,browser-tfjs-webgpu', '--browsers', 'firefox-webgpu,firefox,webkit', '--batch-sizes', '1', '--limit', '2', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out];
  const r = await runCli(args, { timeoutMs: 400_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const cell = (engine: string) => run.cells.find((c) => c.engine === engine);
  for (const engine of ['browser-onnx-webgpu', 'browser-tfjs-webgpu']) {
    const c = cell(`${engine}@firefox-webgpu`);
    assert.equal(c?.state, 'completed', JSON.stringify(c));
    if (c?.state !== 'completed') continue;
    assert.ok(c.session.browser?.webgpuAdapter, `${engine}: adapter read back`);
    assert.ok((c.session.browser?.webgpuFeatures ?? []).length > 0, `${engine}: adapter features read back`);
    // Whatever the adapter, the row carries the label the Node engines' rows use; a CPU one reads `software adapter`.
    assert.ok(c.session.adapter?.label, `${engine}: adapter labelled`);
    if (c.session.adapter?.software) assert.match(c.session.adapter.label, /^software adapter/);
    assert.ok(c.session.notes?.some((n) => /opt-in: Firefox prefs dom\.webgpu\.enabled/.test(n)), 'the opt-in is named on the row');
    assert.ok((c.parity?.maxAbsDiff ?? Infinity) <= 1e-4, `${engine}: parity ${c.parity?.maxAbsDiff}`);
    const webkit = cell(`${engine}@webkit`);
    assert.equal(webkit?.state, 'skipped');
    assert.match(webkit?.state === 'skipped' ? webkit.reason : '', /WebKitGTK has no WebGPU/);
    const firefox = cell(`${engine}@firefox`);
    assert.match(firefox?.state === 'skipped' ? firefox.reason : '', /WebGPU is off in Firefox ESR by default.*--browsers firefox-webgpu/);
  }
});
