/**
 * Issue 24: on the dashboard, a run over several models, precisions and
 * sequence lengths gets model, variant and seq columns in its Baseline
 * table, so no two rows read the same; its batch-scaling chart keeps a legend
 * whose labels are whole and inside the chart's box at 1400 px.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage, withPageEvidence } from '../../helpers/dashboard-page.js';
import { cellFromRounds, runOf } from '../../helpers/round-cells.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const BASES = ['tiny-bert (embedded default)', 'hidden=32,layers=1'];
const DTYPES = ['fp32', 'q8'];

/** 2 models × 2 precisions × 2 lengths × 2 batch sizes on two engines, every cell measured in 2 rounds. */
function sweepRecord(): RunRecord {
  const cells: CompletedCell[] = [];
  for (const base of BASES)
    for (const dtype of DTYPES)
      for (const sequenceLength of [8, 16])
        for (const batchSize of [1, 2])
          for (const engine of ['onnx-cpu', 'onnx-wasm']) {
            const meanMs = (engine === 'onnx-cpu' ? 1 : 3) * batchSize * (sequenceLength / 8) * (dtype === 'q8' ? 0.7 : 1);
            cells.push(cellFromRounds({ model: `${base} · ${dtype}`, engine, batchSize, sequenceLength, rows: 8, rounds: [{ passes: 1, meanMs }, { passes: 1, meanMs: meanMs * 1.01 }] }));
          }
  const run = runOf(cells);
  const models = run.models.map((m) => {
    const [of = '', dtype = ''] = m.name.split(' · ');
    return { ...m, variant: { of, dtype, file: `onnx/model_${dtype}.onnx`, parity: null } };
  });
  return { ...run, models };
}

test('the Baseline table of a several-model, several-precision run names model, variant and length; batch scaling has a whole legend', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-cell-keys');
  const runs = join(out, 'runs');
  await seedEntry(runs, 'sweep-run', { record: sweepRecord() });
  const session = await openDashboardPage(t, runs, { engines: ['onnx-cpu', 'onnx-wasm'] });
  const { dash, page, errors } = session;
  await withPageEvidence(session, out, async () => {
    await page.goto(dash.url);
    await page.locator('.detail-head h1', { hasText: '#1' }).waitFor({ timeout: 120_000 });
    await page.locator('.below-chart th', { hasText: 'variant' }).waitFor({ timeout: 120_000 });
    const headers = (await page.locator('.below-chart thead th').allTextContents()).map((h) => h.trim());
    assert.deepEqual(headers.slice(0, 6), ['model', 'variant', 'seq', 'engine', 'threads', 'batch']);
    const rows = await page.locator('.below-chart tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 6).map((td) => td.textContent ?? '').join('|')));
    assert.equal(rows.length, 32);
    assert.equal(new Set(rows).size, 32, `every row is its own cell:\n${rows.join('\n')}`);
    assert.ok(rows.includes('hidden=32,layers=1|q8|16|onnx-wasm|2|2'), rows.join('\n'));

    // The latency chart's axis names each cell whole, not cut to a shared "tiny-bert (embedded defau…".
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    const ticks = await page.locator('.chart svg .role-axis-label text').allTextContents();
    const cut = ticks.filter((l) => l.endsWith('…'));
    assert.deepEqual(cut, [], `axis labels are whole: ${ticks.join(' | ')}`);
    await page.screenshot({ path: join(out, 'dashboard-baseline.png'), fullPage: true });

    await page.getByRole('tab', { name: 'Batch-size scaling' }).click();
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    const legend = page.locator('.chart svg .role-legend').first();
    await legend.waitFor({ timeout: 120_000 });
    const labels = await page.locator('.chart svg .role-legend-label text').allTextContents();
    assert.ok(labels.some((l) => l.includes('onnx-cpu')) && labels.some((l) => l.includes('onnx-wasm')), `whole engine names in the legend: ${labels.join(' | ')}`);
    assert.ok(labels.every((l) => !l.endsWith('…')), `no legend label is cut: ${labels.join(' | ')}`);
    const box = await legend.boundingBox();
    const chart = await page.locator('.chart').first().boundingBox();
    assert.ok(box && chart && box.x + box.width <= chart.x + chart.width + 1, `the legend lies inside the chart's box: ${JSON.stringify({ box, chart })}`);
    await page.screenshot({ path: join(out, 'dashboard-batch-scaling.png'), fullPage: true });
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
