import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { NO_DASHBOARD_BROWSER, openDashboardPage, waitForListState, withPageEvidence } from '../../helpers/dashboard-page.js';
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
  await page.locator('.field.invalid[data-field="calibrationRows"] .error', { hasText: 'calibrationRows must be a whole number' }).waitFor();
  await page.fill('#f-calibration-rows', '128');
  await page.fill('#batch-other', '0');
  await page.getByRole('button', { name: 'Run benchmark' }).click();
  await page.locator('.field.invalid[data-field="batchSizes"] .error', { hasText: 'batchSizes must be a positive integer' }).waitFor();
  await page.fill('#batch-other', '');
  await page.getByRole('button', { name: 'Run benchmark' }).click();

  await waitForListState(page, 1, 'completed');
  await page.locator('.detail-head h1', { hasText: '#1' }).waitFor();
  assert.match((await page.locator('.detail .meta').first().textContent()) ?? '', /batch 1, 2 · cores 1, 2 · 8 rows per cell/);

  // Baseline: one row per cell and the latency distribution chart.
  await page.getByRole('tab', { name: 'Baseline' }).click();
  await chartDrawn(page);
  assert.equal(await page.locator('.below-chart tbody tr').count(), 4);

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
  assert.equal(await page.locator('.below-chart tbody tr').count(), 4);
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
