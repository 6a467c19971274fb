import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { call, seedEntry, waitForEnd } from '../../helpers/dashboard.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage, withPageEvidence } from '../../helpers/dashboard-page.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('the dashboard opens a train run and a generate run in their own views, with no script error', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-train-generate');
  const runs = join(out, 'runs');
  // #1 a classification run, #2 a train run from the CLI (--no-isolate: isolation is not this test's subject), #3 a generate run queued through the API.
  await seedEntry(runs, 'sample-run');
  const train = await runCli(['train', '--model', join(HF_FIXTURES_DIR, 'distilbert'), '--engines', 'tfjs-wasm', '--batch-sizes', '4', '--steps', '2', '--warm-steps', '0', '--rounds', '1', '--no-isolate', '--no-png', '--out', runs]);
  assert.equal(train.code, 0, train.stderr);
  const session = await openDashboardPage(t, runs, { engines: ['onnx-cpu'] });
  const { dash, page, errors } = session;
  const gen = await call(dash.url, 'POST', '/api/generate', { engines: ['onnx-cpu'], batchSizes: [1], promptLengths: [8], newTokens: [4], runs: 2, warmupRuns: 0, isolate: false, png: false });
  assert.equal(gen.status, 201, JSON.stringify(gen.body));
  assert.equal((await waitForEnd(dash.url, gen.body.id, 120_000)).state, 'completed');

  await withPageEvidence(session, out, async () => {
    // Opened without a choice, the page shows the newest entry: the generate run, with TTFT and TPOT.
    await page.goto(dash.url);
    await page.locator('#connection', { hasText: 'live' }).waitFor({ timeout: 120_000 });
    await page.locator('.detail-head h1', { hasText: '#3' }).waitFor({ timeout: 120_000 });
    assert.match((await page.locator('.detail .meta').first().textContent()) ?? '', /generate · .*batch 1 · prompt 8 · new tokens 4 · cores default/);
    await page.locator('.below-chart th', { hasText: 'TTFT mean' }).waitFor({ timeout: 120_000 });
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'TPOT' }).click();
    await page.locator('.chart', { hasText: 'Time per output token' }).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: join(out, 'dashboard-generate.png'), fullPage: true });

    // The classification run, then the train run: the pane follows the pick.
    await page.locator('.run-item[data-id="1"] .run-main').click();
    await page.locator('.detail-head h1', { hasText: '#1' }).waitFor({ timeout: 120_000 });
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    await page.locator('.run-item[data-id="2"] .run-main').click();
    await page.locator('.detail-head h1', { hasText: '#2' }).waitFor({ timeout: 120_000 });
    assert.match((await page.locator('.detail .meta').first().textContent()) ?? '', /train · .*batch 4 · 2 steps × 1 round · cores default/);
    await page.locator('.below-chart th', { hasText: 'step mean' }).waitFor({ timeout: 120_000 });
    assert.match((await page.locator('.below-chart tbody').textContent()) ?? '', /tfjs-wasm/);
    await page.locator('.chart svg.marks').first().waitFor({ timeout: 120_000 });
    assert.equal(await page.getByRole('tab', { name: 'Core scaling' }).count(), 0, 'a train run has no classification views');
    await page.screenshot({ path: join(out, 'dashboard-train.png'), fullPage: true });

    assert.equal(await page.locator('#connection').textContent(), 'live');
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
