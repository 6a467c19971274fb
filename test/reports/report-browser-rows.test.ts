import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCsv } from '../../reports/csv-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import type { BrowserReadback } from '../../src/core/engine-session.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

const PAGE: BrowserReadback = {
  browser: 'Chromium 156.0.8078.79',
  crossOriginIsolated: true,
  hardwareConcurrency: 2,
  simd: true,
  webglRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
  webgpuAdapter: null,
  webgpuUnavailable: 'navigator.gpu.requestAdapter() returned null',
  coldStart: { pageLoadMs: 850, runtimeInitMs: 1200, sessionBuildMs: 550 },
  memory: { afterOpen: { bytes: 6_000_000, source: 'measureUserAgentSpecificMemory', covers: 'page and workers' }, peakJsHeapBytes: 7_000_000 },
};

/** The sweep run with its tfjs-wasm cells relabelled as a browser engine whose session carries a page read-back. */
function withBrowserRows(): RunRecord {
  const run = buildSweepRun();
  const cells = run.cells.map((c): CellResult => (c.engine === 'tfjs-wasm' && c.state === 'completed' ? { ...c, engine: 'browser-tfjs-wasm', session: { ...c.session, engine: 'browser-tfjs-wasm', browser: PAGE } } : c));
  return { ...run, cells };
}

test('browser rows carry the page read-back into the CSV, the terminal report and the comparison chart', () => {
  const run = withBrowserRows();
  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const col = (name: string) => header.indexOf(name);
  const browserRow = rows.find((r) => r[col('engine')] === 'browser-tfjs-wasm');
  const nodeRow = rows.find((r) => r[col('engine')] === 'onnx-cpu');
  assert.equal(browserRow?.[col('webgl_renderer')], PAGE.webglRenderer);
  assert.equal(browserRow?.[col('cross_origin_isolated')], 'true');
  assert.equal(browserRow?.[col('session_build_ms')], '550');
  assert.equal(nodeRow?.[col('browser')], '', 'Node rows leave the browser columns empty');

  // The environment block wraps its long lines under their own text; joined again, they read as one.
  const text = renderTerminalReport(run, { details: true, color: false }).replace(/\n +/gu, ' ');
  assert.match(text, /page: Chromium 156\.0\.8078\.79 · crossOriginIsolated true · threads used \d+ of 2 cores · SIMD on/);
  assert.match(text, /renderer: WebGL ANGLE .*SwiftShader driver\) · WebGPU none \(navigator\.gpu\.requestAdapter\(\) returned null\)/);

  const spec = JSON.stringify(comparisonChartSpec(run));
  assert.match(spec, /Node engines first, then browser engines/);
  assert.match(spec, /browser \(headless Chromium\)/);
});
