import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { call, seedEntry, seedTrainEntry } from '../../helpers/dashboard.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage, withPageEvidence } from '../../helpers/dashboard-page.js';
import { buildSampleRun } from '../../helpers/sample-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

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
    assert.equal(await page.locator('.below-chart tbody tr').count(), sample.cells.length);

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
  assert.match(train.body.error, /benchmark 2 is a train run/);
});
