import { ENGINE_COLORS } from '../../reports/engine-palette.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { profileCsvColumns, profileCallsTable, renderProfileCsv, timeBreakdownSpec } from '../../reports/profile-files.js';
import { profileSection } from '../../src/scenarios/classify/terminal-profile-section.js';
import { profileChanges, profileComparisonLines } from '../../src/scenarios/classify/profile-comparison.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { profileView } from '../../src/scenarios/classify/profile-dashboard-view.js';
import { profiledRun } from '../helpers/profile-traces.js';

test('profile.csv: the columns, one outside-kernels or unattributed row per engine × batch size, shares summing to 1', () => {
  const run = profiledRun();
  assert.deepEqual(profileCsvColumns(run), ['model', 'engine', 'batch_size', 'op_type', 'op_class', 'calls_per_batch', 'ms_per_batch', 'share', 'source']);
  const [header, ...lines] = renderProfileCsv(run).trimEnd().split('\n');
  assert.equal(header, 'model,engine,batch_size,op_type,op_class,calls_per_batch,ms_per_batch,share,source');
  const sums = new Map<string, number>();
  const outside = new Map<string, number>();
  for (const line of lines) {
    const f = line.split(',');
    const key = `${f[1]} ${f[2]}`;
    sums.set(key, (sums.get(key) ?? 0) + Number(f[7]));
    if (f[4] === 'outside kernels') outside.set(key, (outside.get(key) ?? 0) + 1);
  }
  const completed = run.cells.filter((c) => c.state === 'completed');
  assert.equal(sums.size, completed.length);
  for (const [key, sum] of sums) assert.ok(Math.abs(sum - 1) < 1e-9, `${key}: ${sum}`);
  for (const key of sums.keys()) assert.equal(outside.get(key), 1, key);
  assert.match(lines.join('\n'), /unattributed: tfjs-cpu has no op-level instrument in inferbench/);
  const calls = profileCallsTable(run);
  assert.deepEqual(calls.columns.map((c) => c.name), ['model', 'engine', 'variant', 'batch_size', 'batch', 'node', 'op_type', 'op_class', 'ms', 'source']);
  assert.ok(calls.rowCount > 0);
});

test('WHERE THE TIME GOES: op classes × engines, the outside-kernels row, the profiled engine time beside the timed mean, the largest class per engine', () => {
  const text = profileSection(profiledRun(), 100, 0, false).join('\n');
  assert.match(text, /WHERE THE TIME GOES · batch 1/);
  for (const row of ['matmul', 'layout', 'outside kernels', 'profiled engine time', 'timed mean']) assert.match(text, new RegExp(`^${row} `, 'm'));
  assert.match(text, /^onnx-cpu: largest b1 /m);
  assert.match(text, /source ort profiler: /);
  assert.match(text, /tfjs-cpu: largest b1 unattributed: tfjs-cpu has no op-level instrument/);
  assert.deepEqual(profileSection(buildSampleRun(), 100, 0, false), [], 'nothing without --profile');
});

test('time-breakdown.png colours engines from the one palette, as every other chart does (Node engines in order)', () => {
  const spec = timeBreakdownSpec(profiledRun()) as any;
  const color = spec.layer[0].encoding.color;
  assert.equal(color.field, 'engine');
  assert.equal(color.scale.scheme, undefined, 'no scheme of its own: an engine is the same colour in every chart');
  assert.deepEqual(color.scale.range, ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu'].map((e) => ENGINE_COLORS[e]));
  assert.deepEqual(color.scale.domain, ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu']);
  const bars = spec.data.values as { engine: string; group: string; frac: number }[];
  for (const key of new Set(bars.map((b) => `${b.engine} ${b.group}`))) {
    const sum = bars.filter((b) => `${b.engine} ${b.group}` === key).reduce((a, b) => a + b.frac, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9, `${key}: a bar's segments make its whole (${sum})`);
  }
});

test('compare of two profiled runs names the op classes that moved and by how much', () => {
  const a = profiledRun(1);
  const b = profiledRun(3);
  const changes = profileChanges(a, b);
  assert.ok(changes.some((c) => c.opClass === 'matmul' && c.bMs > c.aMs * 2.9), `matmul tripled: ${JSON.stringify(changes.slice(0, 3))}`);
  assert.ok(!changes.some((c) => c.cell.includes('tfjs-cpu')), 'an unattributed cell is not compared');
  assert.match(profileComparisonLines(a, b, 120, false).join('\n'), /WHERE THE TIME WENT/);
  assert.deepEqual(profileComparisonLines(a, buildSampleRun(), 120, false), []);
});

test('the dashboard tab reads the terminal\'s groups: each column\'s class shares sum to 1, engine time beside the timed mean; null without --profile', () => {
  const view = profileView(profiledRun());
  assert.ok(view);
  assert.deepEqual(view.tables.map((t) => t.title), ['batch 1', 'batch 8', 'batch 32'].map((k) => `WHERE THE TIME GOES · ${k} · ms per batch and share`));
  for (const t of view.tables) {
    assert.equal(t.rows.at(-1)?.opClass, 'outside kernels');
    t.engines.forEach((e, i) => {
      const sum = t.rows.reduce((a, r) => a + (r.cells[i]?.share ?? 0), 0);
      assert.ok(Math.abs(sum - 1) < 1e-9, `${t.title} ${e.engine}: ${sum}`);
      assert.ok(e.timedMsPerBatch > 0 && e.profiledMsPerBatch > 0);
    });
  }
  assert.deepEqual(view.tables[0]?.engines.find((e) => e.engine === 'tfjs-cpu')?.unattributed, 'tfjs-cpu has no op-level instrument in inferbench');
  assert.equal(profileView(buildSampleRun()), null);
});

test('time-breakdown.png draws its op classes in distinct opacity steps, as its legend says (a point scale used only the first two of nine)', async () => {
  const { renderSvg } = await import('../../reports/png-chart.js');
  const svg = await renderSvg(timeBreakdownSpec(profiledRun()));
  const bars = /<g class="mark-rect role-mark layer_0_marks"[\s\S]*?<\/g>/u.exec(svg)?.[0] ?? '';
  const steps = new Set([...bars.matchAll(/opacity="([\d.]+)"/gu)].map((m) => Number(m[1]).toFixed(2)));
  assert.ok(steps.size >= 4, `opacity steps drawn: ${[...steps].join(', ')}`);
  assert.ok(Math.min(...[...steps].map(Number)) <= 0.5, 'down to half and lighter');
});
