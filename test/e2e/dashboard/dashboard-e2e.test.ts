/**
 * The dashboard in headless Chromium, one test per page flow. The tests share
 * this process's Chromium (helpers/dashboard-page.ts), each in a browser
 * context of its own with a dashboard of its own: one launch for the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { call, seedEntry, seedTrainEntry, waitFor } from '../../helpers/dashboard.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage, waitForListState, withPageEvidence } from '../../helpers/dashboard-page.js';
import { cellFromRounds, runOf } from '../../helpers/round-cells.js';
import { profiledRun } from '../../helpers/profile-traces.js';
import { buildSampleRun } from '../../helpers/sample-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Toggles a chip (the checkbox itself is hidden behind its label). */
async function toggleChip(page: Page, group: string, value: string): Promise<void> {
  await page.locator(`#${group} label.chip:has(input[value="${value}"])`).click();
}

/** Opens the ⋮ menu of a list entry and picks an action. */
async function menuAction(page: Page, id: number, label: string): Promise<void> {
  await page.locator(`.run-item[data-id="${id}"] .menu-button`).click();
  await page.locator(`.run-item[data-id="${id}"] .menu button`, { hasText: label }).click();
}

async function chartDrawn(page: Page): Promise<void> {
  await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
}

/**
 * Asserts the table under the chart settles at `n` rows. Waited for, not read once: a refresh the page starts on a late event
 * (a progress count or `finished` after the list already showed the run done) empties the panel and fills it again.
 */
async function belowChartRows(page: Page, n: number): Promise<void> {
  const rows = page.locator('.below-chart tbody tr');
  await rows.nth(Math.max(0, n - 1)).waitFor({ timeout: 120_000 });
  // A count that never settles is reported by the assertion below, with both numbers.
  await waitFor(`${n} rows under the chart`, async () => ((await rows.count()) === n ? true : undefined), 30_000).catch(() => undefined);
  assert.equal(await rows.count(), n, 'rows under the chart');
}

test('the dashboard in headless Chromium: add, views, re-run, compare, remove', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-e2e');
  // The 400 of the deliberately bad batch size is logged by the browser; it is expected.
  const session = await openDashboardPage(t, join(out, 'runs'), { engines: ['onnx-cpu'], expected: /status of 400/ });
  const { dash, page, errors, foreign } = session;
  await withPageEvidence(session, out, steps);

  async function steps(): Promise<void> {
  await page.goto(dash.url);
  await page.locator('#connection', { hasText: 'live' }).waitFor();
  await page.locator('#run-list-empty').waitFor();

  // Add a benchmark: two core counts and two batch sizes, tiny settings under Advanced (no warmup, one round: rounds are not this test's subject).
  await page.getByRole('button', { name: 'Add benchmark' }).click();
  await page.locator('#engine-options input[value="onnx-cpu"]:checked').waitFor({ state: 'attached' });
  await toggleChip(page, 'thread-options', 'default');
  await toggleChip(page, 'thread-options', '1');
  await toggleChip(page, 'thread-options', '2');
  for (const size of ['8', '2']) await toggleChip(page, 'batch-options', size); // the default 1 and 8 are checked: 1 stays, 8 goes, 2 comes
  await page.locator('summary', { hasText: 'Advanced settings' }).click();
  await page.fill('#f-limit', '8');
  await page.fill('#f-warmup', '0');
  await page.fill('#f-rounds', '1');
  await page.fill('#f-min-time', '0');
  await page.fill('#f-min-batches', '1');
  await page.fill('#f-max-time', '5');
  await page.selectOption('#f-reference', 'none');
  await page.locator('#f-isolate').uncheck();

  // A bad value is refused at its field, and nothing is queued: an advanced one (q8-static's calibration rows) too.
  assert.equal(await page.inputValue('#f-calibration-rows'), '128', 'the CLI default');
  await page.fill('#f-calibration-rows', '0');
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.locator('.field.invalid[data-field="calibrationRows"] .error', { hasText: 'Calibration rows must be a whole number' }).waitFor();
  await page.fill('#f-calibration-rows', '128');
  await page.fill('#batch-other', '0');
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.locator('.field.invalid[data-field="batchSizes"] .error', { hasText: 'Batch sizes must be a whole number of at least 1' }).waitFor();
  await page.fill('#batch-other', '');
  await page.getByRole('button', { name: 'Run benchmark' }).click();

  await waitForListState(page, 1, 'completed');
  await page.locator('.detail-head h1', { hasText: '#1' }).waitFor();
  assert.match((await page.locator('.detail .meta').first().textContent()) ?? '', /batch 1, 2 · cores 1, 2 · 8 rows per cell/);

  // Baseline: one row per cell and the latency distribution chart.
  await page.getByRole('tab', { name: 'Baseline' }).click();
  await chartDrawn(page);
  await belowChartRows(page, 4);

  // Core scaling at a chosen batch size.
  await page.getByRole('tab', { name: 'Core scaling' }).click();
  await chartDrawn(page);
  assert.equal(await page.locator('#core-batch').inputValue(), '2', 'the largest batch size first');
  await page.selectOption('#core-batch', '1');
  await page.locator('.chart', { hasText: 'core scaling at batch 1' }).waitFor();

  // Batch-size scaling at a chosen core count.
  await page.getByRole('tab', { name: 'Batch-size scaling' }).click();
  await chartDrawn(page);
  await page.selectOption('#batch-threads', '2');
  await page.locator('.chart', { hasText: 'batch scaling with 2 threads' }).waitFor();

  // Re-run from the list menu: a new entry linked to the first.
  await menuAction(page, 1, 'Re-run benchmark');
  await waitForListState(page, 2, 'completed');
  await page.locator('.run-item[data-id="2"]', { hasText: 're-run of #1' }).waitFor();

  // Compare the two: the comparative graph and the per-cell calls.
  await page.locator('.run-item[data-id="2"] .run-main').click();
  await page.locator('.detail-head h1', { hasText: '#2' }).waitFor();
  await page.getByRole('tab', { name: 'Compare' }).click();
  await chartDrawn(page);
  assert.equal(await page.locator('#compare-select').inputValue(), '1', 'compared with the benchmark it re-ran');
  await belowChartRows(page, 4);
  assert.match((await page.locator('.chart').textContent()) ?? '', /run comparison/);
  await page.screenshot({ path: join(out, 'dashboard-compare.png'), fullPage: true });

  // Remove the first one, through the confirmation.
  await menuAction(page, 1, 'Remove');
  await page.locator('#confirm-dialog[open]').waitFor();
  await page.locator('#confirm-ok').click();
  await page.locator('.run-item[data-id="1"]').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.run-item').count(), 1);
  assert.equal((await dash.store.list()).map((e) => e.id).join(), '2');

  await page.getByRole('tab', { name: 'Core scaling' }).click();
  await chartDrawn(page);
  const shot = join(out, 'dashboard.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(existsSync(shot));
  assert.deepEqual(errors, [], 'no script errors in the page');
  assert.deepEqual(foreign, [], 'every asset comes from the dashboard itself');
  process.stdout.write(`# screenshot: ${shot}\n`);
  }
});

test('the new-benchmark form submitted exactly as it first appears runs to completion at the engine default threads', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-form-defaults');
  const session = await openDashboardPage(t, join(out, 'runs'), { engines: ['onnx-cpu'] });
  const { dash, page, errors } = session;
  await withPageEvidence(session, out, async () => {
    await page.goto(dash.url);
    await page.locator('#connection', { hasText: 'live' }).waitFor();
    await page.getByRole('button', { name: 'Add benchmark' }).click();
    await page.locator('#engine-options input[value="onnx-cpu"]:checked').waitFor({ state: 'attached' });
    assert.equal(await page.locator('#thread-options input:checked').count(), 1, 'one chip: engine default');
    assert.equal(await page.locator('#thread-options input[value="default"]:checked').count(), 1);

    const posted = page.waitForRequest((r) => r.url().endsWith('/api/runs') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Run benchmark' }).click();
    const response = await (await posted).response();
    assert.equal(response?.status(), 201, `the form's own request is accepted: ${await response?.text()}`);
    await waitForListState(page, 1, 'completed', 240_000);
    await page.locator('.detail-head h1', { hasText: '#1' }).waitFor();
    assert.match((await page.locator('.detail .meta').first().textContent()) ?? '', /cores default/);
    const entry = await dash.store.require(1);
    assert.equal(entry.state, 'completed');
    assert.ok(entry.cellsDone > 0, 'cells were measured');
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});

test('the Compare picker offers only run benchmarks sharing a cell with the open one, and picks the one sharing most', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-compare-picker');
  const runs = join(out, 'runs');
  const sample = buildSampleRun();
  // #1 shares every cell with #5; #2 is a train run; #3 another model (nothing in common); #4 one cell in common; #5 is opened.
  await seedEntry(runs, 'shares-all');
  await seedTrainEntry(runs, 'a-train-run');
  await seedEntry(runs, 'other-model', { record: { ...sample, cells: sample.cells.map((c) => ({ ...c, model: 'another-model' })) } });
  await seedEntry(runs, 'shares-one', { record: { ...sample, cells: sample.cells.slice(0, 1) } });
  await seedEntry(runs, 'opened');
  const session = await openDashboardPage(t, runs, { engines: ['onnx-cpu'] });
  const { dash, page, errors } = session;

  await withPageEvidence(session, out, async () => {
    await page.goto(`${dash.url}#/runs/5`);
    await page.locator('.detail-head h1', { hasText: '#5' }).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.locator('#compare-select').waitFor({ timeout: 120_000 });
    const offered = await page.locator('#compare-select option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    assert.deepEqual(offered, ['4', '1'], 'newest first, no train run, no run without a common cell');
    assert.equal(await page.locator('#compare-select').inputValue(), '1', 'the one sharing the most cells, though #4 is newer');
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    await belowChartRows(page, sample.cells.length);

    // A new benchmark is offered the same kind of runs to compare against: no train run.
    await page.getByRole('button', { name: 'Add benchmark' }).click();
    const against = await page.locator('#compare-with option').evaluateAll((options) => options.map((o) => o.getAttribute('value')));
    assert.deepEqual(against, ['', '5', '4', '3', '1']);
    assert.deepEqual(errors, [], 'no script errors in the page');
  });

  // The API behind it; a train run is refused by /api/compare for what it is.
  const api = await call(dash.url, 'GET', '/api/runs/5/comparable');
  assert.deepEqual(api.body.candidates.map((c: { id: number }) => c.id).sort(), [1, 4]);
  const train = await call(dash.url, 'GET', '/api/compare?a=2&b=5');
  assert.equal(train.status, 409);
  assert.match(train.body.error, /benchmark 2 is a `train` benchmark and benchmark 5 a `run` one/);
});

/**
 * Issue 24: on the dashboard, a run over several models, precisions and
 * sequence lengths gets model, variant and seq columns in its Baseline
 * table, so no two rows read the same; its batch-scaling chart keeps a legend
 * whose labels are whole and inside the chart's box at 1400 px.
 */
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

/**
 * Issue 44: a `run --profile` benchmark's Where the time goes tab shows the
 * terminal's WHERE THE TIME GOES table (op classes × engines, the
 * outside-kernels row, the profiled engine time beside the timed mean, each
 * engine's source and unattributed reason) and the time-breakdown chart,
 * from the server's view; an unprofiled one says to run with --profile.
 */
test('the Where the time goes tab of a profiled run shows op classes × engines and the time-breakdown chart; an unprofiled run says run with --profile', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-profile');
  const runs = join(out, 'runs');
  await seedEntry(runs, 'not-profiled');
  await seedEntry(runs, 'profiled', { record: profiledRun() });
  const session = await openDashboardPage(t, runs, { engines: ['onnx-cpu'] });
  const { dash, page, errors } = session;
  const views = await call(dash.url, 'GET', '/api/runs/2/views');
  assert.equal(views.status, 200);
  const first = views.body.profile.tables[0];
  assert.ok(first, 'the server sends the tables');
  await withPageEvidence(session, out, async () => {
    await page.goto(`${dash.url}#/runs/2`);
    await page.locator('.detail-head h1', { hasText: '#2' }).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Where the time goes' }).click();
    await chartDrawn(page);
    const table = page.locator('.below-chart table.profile-table').first();
    await table.waitFor({ timeout: 120_000 });
    const headers = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
    assert.deepEqual(headers, ['op class', ...first.engines.map((e: { engine: string }) => e.engine)]);
    const labels = (await table.locator('tbody tr td:first-child').allTextContents()).map((l) => l.trim());
    assert.deepEqual(labels, [...first.rows.map((r: { opClass: string }) => r.opClass), 'profiled engine time', 'timed mean', 'source', 'unattributed']);
    for (const row of ['matmul', 'outside kernels']) assert.ok(labels.includes(row), labels.join(' | '));
    const text = (await table.textContent()) ?? '';
    assert.match(text, /ort profiler/);
    assert.match(text, /tfjs-cpu has no op-level instrument in inferbench/);
    assert.match(text, /\d+%/);
    assert.match((await page.locator('.below-chart').textContent()) ?? '', /onnx-cpu: largest b1 /);
    await page.screenshot({ path: join(out, 'dashboard-profile.png'), fullPage: true });

    await page.goto(`${dash.url}#/runs/1`);
    await page.locator('.detail-head h1', { hasText: '#1' }).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Where the time goes' }).click();
    await page.locator('.chart', { hasText: 'run with --profile' }).waitFor({ timeout: 120_000 });
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
