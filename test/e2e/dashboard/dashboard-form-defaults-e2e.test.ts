import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { NO_DASHBOARD_BROWSER, openDashboardPage, waitForListState, withPageEvidence } from '../../helpers/dashboard-page.js';
import { testOutputDir } from '../../helpers/test-cache.js';

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
