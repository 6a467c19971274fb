/**
 * Issue 47: on the dashboard nothing is cut off, on any tab of any kind of
 * run, at 1366×768 or 1920×1080, and the page logs no warning (vega's
 * "Infinite extent for field …" among them). One run of each kind the
 * dashboard shows: a classification run measured here and three recorded
 * ones (a sweep over two models, three engines and two core counts with
 * NOISY cells, its re-run, and a profiled run with errored and skipped
 * cells), a train run from the CLI, a generate run and a load run with its
 * re-run, each small. Every tab of each is opened at both sizes and read
 * by panelMisfits (test/helpers/page-misfits.ts); Compare on the load
 * re-run finds its cells at both rates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { call, seedEntry, waitForEnd } from '../../helpers/dashboard.js';
import { NO_DASHBOARD_BROWSER, openDashboardPage, withPageEvidence } from '../../helpers/dashboard-page.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { chartsDrawn, pageOverflow, panelMisfits, panelSignature } from '../../helpers/page-misfits.js';
import { profiledRun } from '../../helpers/profile-traces.js';
import { cellFromRounds, runOf } from '../../helpers/round-cells.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

const MODELS = ['tiny-bert (embedded default) · fp32', 'hidden=32,layers=1 · q8'];
const ENGINES = ['onnx-cpu', 'onnx-wasm', 'transformers-js'];

/**
 * Two models × three engines × two core counts × two batch sizes, every
 * other cell NOISY (its rounds 30% apart), engines a few per cent apart so
 * their labels meet, on a machine with a long name: what made the headers
 * long and the labels collide. `scale` slows run B for its comparison.
 */
function sweepRecord(scale: number): RunRecord {
  const cells: CompletedCell[] = [];
  let n = 0;
  for (const model of MODELS)
    for (const engine of ENGINES)
      for (const threads of [1, 2])
        for (const batchSize of [1, 8]) {
          const meanMs = scale * (1 + 0.12 * ENGINES.indexOf(engine)) * batchSize * (model === MODELS[0] ? 1 : 0.6) / threads ** 0.7;
          const noisy = n++ % 2 === 0;
          cells.push(cellFromRounds({
            model, engine, batchSize, rows: 16, requestedThreads: threads, threads,
            rounds: [{ passes: 1, meanMs }, { passes: 1, meanMs: meanMs * (noisy ? 1.3 : 1.01) }, { passes: 1, meanMs }],
            ...(engine === 'transformers-js' ? { forwardShare: 0.9 } : {}),
          }));
        }
  const run = runOf(cells);
  return {
    ...run,
    environment: { ...run.environment, cpuModel: 'Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz', cores: 2, gpus: ['SwiftShader Device (Subzero) (0x0000C0DE)'] },
    models: run.models.map((m) => {
      const [of = '', dtype = ''] = m.name.split(' · ');
      return { ...m, variant: { of, dtype, file: `onnx/model_${dtype}.onnx`, parity: null } };
    }),
  };
}

/** Waits until the panel's charts are drawn (or say why not) and the panel stops changing: vega-embed may draw a chart twice. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(chartsDrawn, undefined, { timeout: 120_000 });
  let last = '';
  for (let i = 0; i < 40; i++) {
    const now = await page.evaluate(panelSignature);
    if (now === last) return;
    last = now;
    await page.waitForTimeout(250);
  }
}

test('every tab of every kind of run fits its panel at 1366×768 and 1920×1080 with no console warning; Compare on a load re-run finds its cells', { skip: NO_DASHBOARD_BROWSER }, async (t) => {
  const out = testOutputDir('dashboard-fit');
  const runs = join(out, 'runs');
  // #1 and #2 a recorded sweep and its slower re-run, #3 a profiled run with errored and skipped cells, #4 a train run.
  const sweep = await seedEntry(runs, 'sweep', { record: sweepRecord(1) });
  await seedEntry(runs, 'sweep-again', { record: sweepRecord(1.15), rerunOf: sweep.id });
  await seedEntry(runs, 'profiled', { record: profiledRun() });
  const train = await runCli(['train', '--model', join(HF_FIXTURES_DIR, 'distilbert'), '--engines', 'tfjs-wasm', '--batch-sizes', '4', '--steps', '2', '--warm-steps', '0', '--rounds', '2', '--no-isolate', '--no-png', '--out', runs]);
  assert.equal(train.code, 0, train.stderr);

  const session = await openDashboardPage(t, runs, { engines: ['onnx-cpu'] });
  const { dash, page, errors } = session;
  // #5 a classification run measured here, #6 a load run at two rates, #7 a generate run, #8 the load run again.
  const queued: number[] = [];
  for (const [route, body] of [
    ['/api/runs', { engines: ['onnx-cpu'], threads: [1, 2], batchSizes: [1, 2], limit: 8, rounds: 2, warmupBatches: 0, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 2000 }, parity: { reference: null }, isolate: false, png: false }],
    ['/api/load', { engines: ['onnx-cpu'], rates: [20, 40], durationMs: 300, warmupMs: 50, minQueries: 10, slo: 'p99=200ms', isolate: false, png: false }],
    ['/api/generate', { engines: ['onnx-cpu'], batchSizes: [1], promptLengths: [8], newTokens: [4], runs: 2, warmupRuns: 0, isolate: false, png: false }],
  ] as const) {
    const added = await call(dash.url, 'POST', route, body);
    assert.equal(added.status, 201, JSON.stringify(added.body));
    queued.push(added.body.id);
  }
  for (const id of queued) assert.equal((await waitForEnd(dash.url, id, 240_000)).state, 'completed', `benchmark ${id}`);
  const load = queued[1] as number;
  const rerun = await call(dash.url, 'POST', `/api/runs/${load}/rerun`);
  assert.equal(rerun.status, 201, JSON.stringify(rerun.body));
  assert.equal((await waitForEnd(dash.url, rerun.body.id, 240_000)).state, 'completed');

  // Warnings too: vega reports an empty or infinite scale domain as a console warning, not an error.
  const warnings: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'warning' || msg.type() === 'error') warnings.push(`${msg.type()}: ${msg.text()}`);
  });
  const ids = (await dash.store.list()).map((e) => e.id).sort((a, b) => a - b);
  assert.equal(ids.length, 8);

  await withPageEvidence(session, out, async () => {
    const misfits: string[] = [];
    const seen: string[] = [];
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      for (const id of ids) {
        await page.goto(`${dash.url}#/runs/${id}`);
        await page.locator('.detail-head h1', { hasText: `#${id} ` }).waitFor({ timeout: 120_000 });
        const tabs = (await page.locator('.tab').allTextContents()).map((s) => s.trim());
        for (const tab of tabs) {
          const before = warnings.length;
          const had = misfits.length;
          await page.getByRole('tab', { name: tab, exact: true }).click();
          await settled(page);
          const where = `${viewport.width}×${viewport.height} #${id} ${tab}`;
          seen.push(where);
          misfits.push(...(await page.evaluate(panelMisfits, '.detail')).map((m) => `${where}: ${m}`));
          misfits.push(...warnings.slice(before).map((w) => `${where}: console ${w}`));
          const sideways = await page.evaluate(pageOverflow);
          if (sideways > 0) misfits.push(`${where}: the page scrolls sideways by ${sideways} px`);
          // A picture of each view that does not fit, named by where it is, beside the test's output.
          if (misfits.length > had) await page.screenshot({ path: join(out, `misfit-${viewport.width}-${id}-${tab.replace(/\W+/g, '-')}.png`), fullPage: true });
        }
      }
    }
    // Every kind was opened, each on all its tabs.
    for (const tab of ['Baseline', 'Core scaling', 'Batch-size scaling', 'Where the time goes', 'Compare', 'Step time', 'TTFT', 'TPOT', 'Latency under load']) {
      assert.ok(seen.some((s) => s.endsWith(` ${tab}`)), `${tab} was opened: ${seen.join(', ')}`);
    }
    // The whole list beside the test's output: the assertion's diff shows only its start.
    writeFileSync(join(out, 'misfits.txt'), `${[...new Set(misfits)].join('\n')}\n`);
    assert.deepEqual([...new Set(misfits)], [], `everything fits, and the page logs no warning (all of it: ${join(out, 'misfits.txt')})`);

    // The Baseline's NOISY line shows only the NOISY cells in the table; the header counted the rest ("and N more").
    const baseline = await call(dash.url, 'GET', `/api/runs/${sweep.id}/views`);
    const noisy = (baseline.body.baseline.rows as { verdict: { status: string } | null }[]).filter((r) => r.verdict?.status === 'NOISY').length;
    assert.ok(noisy > 0, 'the sweep has NOISY cells');
    await page.goto(`${dash.url}#/runs/${sweep.id}`);
    await page.locator('.detail-head h1', { hasText: `#${sweep.id} ` }).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Baseline', exact: true }).click();
    await settled(page);
    await page.locator('.below-chart a[data-filter="NOISY"]').click();
    assert.equal(await page.locator('.below-chart tbody tr:visible').count(), noisy, 'only the NOISY cells are listed');

    // Compare on the load re-run: the run it re-ran is picked, and both rates are matched cells.
    await page.setViewportSize(VIEWPORTS[0]);
    await page.goto(`${dash.url}#/runs/${rerun.body.id}`);
    await page.locator('.detail-head h1', { hasText: `#${rerun.body.id} ` }).waitFor({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Compare', exact: true }).click();
    await settled(page);
    assert.equal(await page.locator('#compare-select').inputValue(), String(load), 'compared with the run it re-ran');
    const cells = (await page.locator('.below-chart table').last().locator('tbody tr td:first-child').allTextContents()).map((s) => s.trim());
    assert.deepEqual(cells, ['onnx-cpu @ 20 req/s', 'onnx-cpu @ 40 req/s'], 'the matched cells');
    await page.screenshot({ path: join(out, 'dashboard-load-compare.png'), fullPage: true });
    assert.deepEqual(errors, [], 'no script errors in the page');
  });
});
