import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import type { GenerationRunRecord } from '../../../src/scenarios/generate/generation-results.js';

test('compare on two generate runs writes a PNG of TTFT and TPOT per matched cell, A beside B with intervals, and says where', async () => {
  const out = testOutputDir('compare-generation-png');
  const gen = ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '4', '--new-tokens', '3', '--runs', '1', '--rounds', '2', '--warmup', '0', '--no-png', '--no-isolate', '--out', out];
  for (let i = 0; i < 2; i++) assert.equal((await runCli(gen)).code, 0);

  const plain = await runCli(['compare', '1', '2', '--out', out, '--no-png']);
  assert.equal(plain.code, 0, plain.stderr);
  assert.doesNotMatch(plain.stdout, /Wrote:/, '--no-png writes no chart');
  assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.png')), []);

  const r = await runCli(['compare', '1', '2', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const written = /\nWrote:\n {2}(.+\.png)\n/.exec(r.stdout)?.[1];
  assert.ok(written, `the terminal names the PNG:\n${r.stdout}`);
  assert.match(written, /compare-[^/]+-vs-[^/]+\.png$/);
  assert.ok(written.startsWith(out), 'written into --out');
  assert.ok(existsSync(written));
  assert.deepEqual([...readFileSync(written).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG file');

  // What it draws: both panels, one point per run per matched cell, with its interval.
  const [{ readRunRecord }, { pairGenerationCells }, { generationComparisonChartSpec }] = await Promise.all([
    import('../../../reports/read-run.js'),
    import('../../../src/scenarios/generate/generation-comparison.js'),
    import('../../../src/scenarios/generate/generation-comparison-chart.js'),
  ]);
  const runs = readdirSync(out, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  const [a, b] = (await Promise.all(runs.map(async (id) => (await readRunRecord(join(out, id))).record))) as unknown as [GenerationRunRecord, GenerationRunRecord];
  const spec = generationComparisonChartSpec(a, b, pairGenerationCells(a, b)) as unknown as { hconcat: { title: { text: string }; data: { values: { run: string; low: number; high: number; mean: number }[] } }[] };
  assert.deepEqual(spec.hconcat.map((p) => p.title.text), ['Time to first token', 'Time per output token after the first']);
  for (const panel of spec.hconcat) {
    assert.deepEqual(panel.data.values.map((v) => v.run.slice(0, 2)), ['A:', 'B:']);
    for (const v of panel.data.values) assert.ok(v.low <= v.mean && v.mean <= v.high && v.low < v.high, `an interval around the mean: ${JSON.stringify(v)}`);
  }
});
