import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { describeAdapter } from '../../../src/core/gpu-adapter.js';
import type { CellResult } from '../../../src/core/results.js';
import { renderCsv } from '../../../reports/csv-report.js';
import { renderTerminalReport } from '../../../src/scenarios/classify/terminal-report.js';
import { latencyDistributionChartSpec } from '../../../reports/latency-chart.js';
import { batchScalingChartSpec } from '../../../reports/view-charts.js';
import { comparisonChartSpec } from '../../../reports/chart-spec.js';
import { probeDawnAdapter, SWIFTSHADER_ICD } from '../../../engines/webgpu/dawn-adapter.js';
import { createOnnxNodeEngine } from '../../../engines/onnx/onnx-node-engine.js';
import { buildSampleRun } from '../../helpers/sample-run.js';
import { parseCsv } from '../../helpers/parse-csv.js';

const SWIFTSHADER_INFO = { vendor: 'google', architecture: 'swiftshader', device: 'swiftshader-device-subzero-', description: 'SwiftShader driver 5.0.0', isFallbackAdapter: true };
const LABEL = 'software adapter (SwiftShader)';

test('Dawn adapter info reads as a software adapter for SwiftShader, llvmpipe or any fallback adapter, and as the GPU otherwise', () => {
  const swift = describeAdapter(SWIFTSHADER_INFO, 'test');
  assert.equal(swift.software, true);
  assert.equal(swift.label, LABEL);
  // Dawn's own fallback flag alone is enough, and a software driver named only in its description is caught without it.
  assert.equal(describeAdapter({ vendor: 'x', architecture: '', description: 'some CPU driver', isFallbackAdapter: true }, 't').software, true);
  assert.equal(describeAdapter({ vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' }, 't').label, 'software adapter (llvmpipe)');
  const gpu = describeAdapter({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200', isFallbackAdapter: false }, 't');
  assert.equal(gpu.software, false);
  assert.equal(gpu.label, 'nvidia hopper (NVIDIA H200)');
});

/** The sample run with tfjs-wasm's rows recast as a WebGPU engine's on SwiftShader. */
function runOnSoftwareAdapter() {
  const run = buildSampleRun();
  const adapter = describeAdapter(SWIFTSHADER_INFO, 'test');
  const cells = run.cells.map((c): CellResult =>
    c.engine === 'tfjs-wasm' && c.state === 'completed' ? { ...c, engine: 'tfjs-webgpu', session: { ...c.session, engine: 'tfjs-webgpu', backend: `webgpu on ${adapter.label}`, adapter } } : c,
  );
  return { ...run, cells };
}

test('every view marks a software adapter: terminal tables, CSV rows and chart labels', () => {
  const run = runOnSoftwareAdapter();
  const terminal = renderTerminalReport(run, { details: true, color: false, width: 220 });
  // Every table that lists the engine names the adapter with it: speed, latency statistics, batch scaling, memory.
  const engineLines = terminal.split('\n').filter((l) => /^\s*(\S+\s+)?tfjs-webgpu\b/.test(l));
  assert.ok(engineLines.length >= 4, terminal);
  for (const line of engineLines) assert.match(line, /tfjs-webgpu( · |: .* · backend webgpu on )software adapter \(SwiftShader\)/, line);
  const [header, ...rows] = parseCsv(renderCsv(run));
  const col = (name: string): number => (header as string[]).indexOf(name);
  const webgpuRows = rows.filter((r) => r[col('engine')] === 'tfjs-webgpu');
  assert.ok(webgpuRows.length > 0);
  for (const r of webgpuRows) {
    assert.equal(r[col('webgpu_adapter')], LABEL);
    assert.match(r[col('backend')] ?? '', /software adapter \(SwiftShader\)/);
  }
  // A CPU engine's rows never get the label.
  assert.ok(rows.filter((r) => r[col('engine')] === 'onnx-cpu').every((r) => !(r.join(',').includes(LABEL))));
  for (const [name, spec] of [
    ['latency distribution', latencyDistributionChartSpec(run)],
    ['batch scaling', batchScalingChartSpec(run)],
    ['comparison', comparisonChartSpec(run)],
  ] as const) {
    assert.ok(JSON.stringify(spec).includes(`tfjs-webgpu · ${LABEL}`), `${name} chart names the software adapter`);
  }
  // Axis labels may be cut short in the picture; the subtitle says it whole.
  // (wrapped into several subtitle lines: joined back before the search)
  assert.ok(JSON.stringify(latencyDistributionChartSpec(run)).replaceAll('","', ' ').includes(`${LABEL}, not a GPU: tfjs-webgpu`));
});

test('with the Vulkan loader missing, the WebGPU probe says which file and the apt package that brings it', async () => {
  const probe = await probeDawnAdapter({ loader: 'libvulkan-not-installed.so.1' });
  assert.ok(!probe.ok, JSON.stringify(probe));
  assert.match(probe.reason, /^libvulkan-not-installed\.so\.1 not found/);
  assert.equal(probe.enable, 'apt install libvulkan1');
});

test('with no Vulkan driver (VK_ICD_FILENAMES names no file), the WebGPU probe says so and how to point at a driver', { skip: existsSync('/usr/lib/x86_64-linux-gnu/libvulkan.so.1') ? false : 'libvulkan.so.1 is not installed (apt install libvulkan1)' }, async () => {
  const probe = await probeDawnAdapter({ env: { ...process.env, VK_ICD_FILENAMES: '/nonexistent/vk_icd.json' } });
  assert.ok(!probe.ok, JSON.stringify(probe));
  assert.match(probe.reason, /^no Vulkan driver for a GPU \(VK_ICD_FILENAMES=\/nonexistent\/vk_icd\.json names no ICD file: \/nonexistent\/vk_icd\.json does not exist\)/);
  assert.match(probe.enable, /set VK_ICD_FILENAMES to a driver's ICD file, e\.g\. SwiftShader's/);
});

test("SwiftShader's ICD gives Dawn an adapter that the probe labels a software adapter", { skip: existsSync(SWIFTSHADER_ICD) ? false : `no SwiftShader ICD at ${SWIFTSHADER_ICD} (Debian chromium)` }, async () => {
  const probe = await probeDawnAdapter({ env: { ...process.env, VK_ICD_FILENAMES: SWIFTSHADER_ICD } });
  assert.ok(probe.ok, JSON.stringify(probe));
  assert.equal(probe.adapter.software, true);
  assert.equal(probe.adapter.label, LABEL);
});

test('onnx-cuda and onnx-tensorrt without their provider libraries name the file, where it comes from and how to get it', async (t) => {
  for (const device of ['cuda', 'tensorrt'] as const) {
    const a = await createOnnxNodeEngine(device).probe();
    if (a.available) {
      t.diagnostic(`onnx-${device} is available here; its missing-library reason cannot be checked`);
      continue;
    }
    assert.match(a.reason, new RegExp(`libonnxruntime_providers_${device}\\.so is not next to onnxruntime-node's binding .*NuGet \\(ONNXRUNTIME_NODE_INSTALL=cuda12, with internet\\), or copy it there`));
    assert.match(a.enable, /onnx-webgpu is the GPU path that works from npm alone/);
  }
});
