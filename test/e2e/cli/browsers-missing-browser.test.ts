import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a browser that is not installed makes its rows unavailable with the apt line, and the sweep goes on', { skip: NO_CHROMIUM }, async () => {
  const out = testOutputDir('browsers-missing-browser');
  const args = ['run', '--details', '--engines', 'browser-onnx-wasm', '--browsers', 'firefox,webkit,chromium', '--batch-sizes', '1', '--limit', '2', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--reference', 'none', '--no-png', '--out', out];
  const r = await runCli(args, { timeoutMs: 300_000, env: { INFERBENCH_FIREFOX: '/nonexistent/firefox', INFERBENCH_WEBKIT_DRIVER: '/nonexistent/WebKitWebDriver' } });
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const cell = (engine: string) => run.cells.find((c) => c.engine === engine);
  const firefox = cell('browser-onnx-wasm@firefox');
  const webkit = cell('browser-onnx-wasm@webkit');
  assert.equal(firefox?.state, 'skipped', JSON.stringify(firefox));
  assert.match(firefox?.state === 'skipped' ? firefox.reason : '', /INFERBENCH_FIREFOX=\/nonexistent\/firefox is not an executable file.*apt-get install firefox-esr/);
  assert.equal(webkit?.state, 'skipped', JSON.stringify(webkit));
  assert.match(webkit?.state === 'skipped' ? webkit.reason : '', /apt-get install webkit2gtk-driver xvfb/);
  // The sweep went on to the browser that is there.
  assert.equal(cell('browser-onnx-wasm')?.state, 'completed', r.stderr);
  assert.match(r.stdout, /apt-get install firefox-esr/);
});
