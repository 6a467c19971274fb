import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_BROWSERS } from '../../helpers/browser.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const BROWSERS = ['chromium', 'firefox', 'webkit'];
const ENGINES = ['browser-onnx-wasm', 'browser-tfjs-wasm'];

test('run --browsers chromium,firefox,webkit on a Hugging Face export: every cell completes, agrees with onnx-cpu, and reads back its browser, threads and timer', { skip: NO_BROWSERS }, async () => {
  const out = testOutputDir('browsers-every-browser');
  const args = ['run', '--model', 'test/data/hf/bert', '--engines', ['onnx-cpu', ...ENGINES].join(','), '--browsers', BROWSERS.join(','), '--batch-sizes', '1', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out];
  const r = await runCli(args, { timeoutMs: 400_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const expected = ['onnx-cpu', ...ENGINES.flatMap((e) => [e, `${e}@firefox`, `${e}@webkit`])];
  assert.deepEqual(run.cells.map((c) => c.engine).sort(), [...expected].sort());
  const family = { chromium: /^Chromium \d+\./, firefox: /^Firefox \d+\./, webkit: /^WebKitGTK \d+\.\d+/ } as const;
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed' || c.engine === 'onnx-cpu') continue;
    const name = c.engine.split('@')[1] ?? 'chromium';
    const b = c.session.browser;
    assert.ok(b, `${c.engine}: no browser read-back`);
    assert.equal(b.browserName, name);
    assert.match(b.browser, family[name as keyof typeof family]);
    assert.match(b.browserVersion ?? '', /^\d+\.\d+/);
    assert.ok(typeof c.session.threads === 'number' && c.session.threads >= 1, `${c.engine}: threads used read back`);
    assert.ok(typeof b.timerResolutionMs === 'number' && b.timerResolutionMs > 0, `${c.engine}: timer step ${b.timerResolutionMs}`);
    assert.ok(b.timing && b.timing.calls > 0, `${c.engine}: timed calls counted`);
    assert.equal(typeof b.sharedArrayBuffer, 'boolean');
    assert.equal(typeof b.machineCores, 'number');
    assert.equal(c.parity?.reference, 'onnx-cpu');
    assert.ok((c.parity?.maxAbsDiff ?? Infinity) <= 1e-4, `${c.engine}: parity ${c.parity?.maxAbsDiff}`);
    // WebKitGTK leaves SharedArrayBuffer undefined unless opted in: the row says so instead of running one thread silently.
    if (name === 'webkit') {
      assert.equal(b.sharedArrayBuffer, false);
      assert.ok(c.session.notes?.some((n) => /SharedArrayBuffer is undefined .*webkit-sab/.test(n)), c.session.notes?.join(' | '));
    }
  }
  // Every table names each row by engine, browser and version.
  assert.match(r.stdout, /browser-onnx-wasm · firefox \d+/);
  assert.match(r.stdout, /browser-tfjs-wasm · webkit \d+\.\d+/);
  assert.match(r.stdout, /browser-onnx-wasm · chromium \d+/);
  const [header, ...rows] = parseCsv(readFileSync(join(out, runId ?? '', 'results.csv'), 'utf8'));
  assert.ok(header);
  const row = rows.find((x) => x[header.indexOf('engine')] === 'browser-onnx-wasm@firefox');
  assert.equal(row?.[header.indexOf('browser_name')], 'firefox');
  assert.match(row?.[header.indexOf('browser_version')] ?? '', /^\d+\.\d+/);
});
