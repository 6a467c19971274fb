import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, startTestDashboard, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const TINY_LOAD = { engines: ['onnx-cpu'], rates: [40], durationMs: 200, warmupMs: 50, minQueries: 10, isolate: false, png: false };

test('the dashboard queues load runs (POST /api/load, checked like the CLI), shows their views and re-runs them', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-load'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());

  for (const [body, field] of [[{ rates: [0] }, 'rates'], [{ rates: [10], maxWaitMs: 5 }, 'maxWaitMs'], [{ rates: [10], slo: '50ms' }, 'slo'], [{ rates: [10], batchSizes: [1] }, 'batchSizes']] as const) {
    const bad = await call(dash.url, 'POST', '/api/load', body);
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.field, field, JSON.stringify(bad.body));
  }

  const added = await call(dash.url, 'POST', '/api/load', { ...TINY_LOAD, slo: 'p99=200ms' });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const done = await waitForEnd(dash.url, added.body.id, 120_000);
  assert.equal(done.state, 'completed', JSON.stringify(done));
  assert.equal(done.config.command, 'load');

  const views = await call(dash.url, 'GET', `/api/runs/${added.body.id}/views`);
  assert.equal(views.status, 200);
  assert.equal(views.body.kind, 'load');
  assert.equal(views.body.load.rows.length, 1);
  assert.equal(views.body.load.rows[0].rateRps, 40);
  assert.match(views.body.load.hockeyStick.insufficient, /fewer than 2 rates/);
  assert.ok(views.body.load.cdf.spec, 'the latency CDF spec is served');

  const rerun = await call(dash.url, 'POST', `/api/runs/${added.body.id}/rerun`);
  assert.equal(rerun.status, 201, JSON.stringify(rerun.body));
  assert.equal((await waitForEnd(dash.url, rerun.body.id, 120_000)).state, 'completed');
  const compared = await call(dash.url, 'GET', `/api/compare?a=${added.body.id}&b=${rerun.body.id}`);
  assert.equal(compared.status, 200, JSON.stringify(compared.body));
  assert.equal(compared.body.kind, 'load');
  assert.equal(compared.body.cells.length, 1);
  // The Compare tab's picker offers the run it re-ran (a run of --rates alone has no peak; it matched on peaks only and offered none).
  const comparable = await call(dash.url, 'GET', `/api/runs/${rerun.body.id}/comparable`);
  assert.deepEqual(comparable.body.candidates, [{ id: added.body.id, common: 1, cells: 1 }], JSON.stringify(comparable.body));
});
