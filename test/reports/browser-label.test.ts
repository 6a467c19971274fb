import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCsv } from '../helpers/parse-csv.js';
import { renderCsv } from '../../reports/csv-report.js';
import { engineLabeller } from '../../reports/run-summary.js';
import { browserRuntime } from '../../reports/browser-label.js';
import { cellNamer } from '../../reports/cell-names.js';
import { identityColumns } from '../../reports/fitted-table.js';
import { baselineRows } from '../../reports/run-views.js';
import type { BrowserReadback } from '../../src/core/engine-session.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

function page(browser: string, browserName: string, browserVersion: string, extra: Partial<BrowserReadback> = {}): BrowserReadback {
  return {
    browser,
    browserName,
    browserVersion,
    crossOriginIsolated: true,
    hardwareConcurrency: browserName === 'webkit' ? 4 : 2,
    machineCores: 2,
    simd: true,
    sharedArrayBuffer: browserName !== 'webkit',
    timerResolutionMs: browserName === 'chromium' ? 0.005 : 0.02,
    timing: { calls: 8, groupedCalls: browserName === 'chromium' ? 0 : 3, largestGroup: browserName === 'chromium' ? 1 : 17 },
    webglRenderer: null,
    webgpuAdapter: null,
    coldStart: { pageLoadMs: 1, runtimeInitMs: 1, sessionBuildMs: 1 },
    memory: { afterOpen: null, peakJsHeapBytes: null },
    ...extra,
  };
}

/** The sweep run with one completed cell copied as the same engine in three browsers. */
function threeBrowsers(): RunRecord {
  const run = buildSweepRun();
  const base = run.cells.find((c) => c.state === 'completed');
  assert.ok(base && base.state === 'completed');
  const as = (engine: string, b: BrowserReadback): CellResult => ({ ...base, engine, session: { ...base.session, engine, browser: b } });
  return {
    ...run,
    cells: [
      as('browser-onnx-wasm', page('Chromium 156.0.8078.114', 'chromium', '156.0.8078.114')),
      as('browser-onnx-wasm@firefox', page('Firefox 153.8.0', 'firefox', '153.8.0')),
      as('browser-onnx-wasm@webkit', page('WebKitGTK 2.50.6', 'webkit', '2.50.6')),
    ],
  };
}

test('with several browsers each browser engine row is named by engine, browser and version; the CSV keys on the engine id', () => {
  const run = threeBrowsers();
  const label = engineLabeller(run);
  assert.deepEqual(run.cells.map(label), ['browser-onnx-wasm · chromium 156', 'browser-onnx-wasm · firefox 153', 'browser-onnx-wasm · webkit 2.50']);
  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const col = (name: string) => header.indexOf(name);
  assert.deepEqual(rows.map((r) => r[col('engine')]), ['browser-onnx-wasm', 'browser-onnx-wasm@firefox', 'browser-onnx-wasm@webkit']);
  assert.deepEqual(rows.map((r) => r[col('browser_name')]), ['chromium', 'firefox', 'webkit']);
  assert.deepEqual(rows.map((r) => r[col('browser_version')]), ['156.0.8078.114', '153.8.0', '2.50.6']);
  assert.deepEqual(rows.map((r) => r[col('timer_resolution_ms')]), ['0.005', '0.02', '0.02']);
  assert.deepEqual(rows.map((r) => r[col('shared_array_buffer')]), ['true', 'true', 'false']);
  assert.deepEqual(rows.map((r) => `${r[col('hardware_concurrency')]}/${r[col('machine_cores')]}`), ['2/2', '2/2', '4/2']);
  assert.equal(rows[1]?.[col('timed_in_groups')], '3 of 8 calls (largest group 17)');
  // The comparison chart's legend names the browsers the run used, not headless Chromium alone.
  assert.equal(browserRuntime(run), 'browser (chromium, firefox, webkit pages)');
});

test('a run in Chromium alone keeps the bare engine names', () => {
  const run = threeBrowsers();
  const only = { ...run, cells: run.cells.slice(0, 1) };
  assert.deepEqual(only.cells.map(engineLabeller(only)), ['browser-onnx-wasm']);
  assert.equal(browserRuntime(only), 'browser (headless Chromium)');
});

test('progress and verdict lines and the per-cell tables name a browser engine as the charts do, never by its raw id', () => {
  const run = threeBrowsers();
  const name = cellNamer(run);
  const batch = run.cells[0]?.batchSize;
  assert.deepEqual(run.cells.map((c) => name(c)), [`browser-onnx-wasm, batch ${batch}`, `browser-onnx-wasm · firefox, batch ${batch}`, `browser-onnx-wasm · webkit, batch ${batch}`]);
  const engineColumn = identityColumns(run, baselineRows(run)).find((c) => c.header === 'engine');
  assert.ok(engineColumn);
  const shown = baselineRows(run).map((r) => {
    const v = engineColumn.value(r);
    return typeof v === 'string' ? v : v.text;
  });
  assert.deepEqual(shown, ['browser-onnx-wasm · chromium 156', 'browser-onnx-wasm · firefox 153', 'browser-onnx-wasm · webkit 2.50']);
});
