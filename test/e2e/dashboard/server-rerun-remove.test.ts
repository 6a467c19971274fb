import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { call, startTestDashboard, TINY_RUN_ONE_ROUND, waitFor, waitForEnd } from '../../helpers/dashboard.js';
import { createHeldEngine } from '../../helpers/mock-engine.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('re-run queues the same settings as a new linked entry; remove deletes an entry and its folder', async (t) => {
  // The slow run's engine: a mock whose second load (its second cell) waits for the test, so the run is still measuring, one cell done, for as long as the test needs.
  const { engine: held, release } = createHeldEngine('held-mock', 1);
  const dash = await startTestDashboard(testOutputDir('server-rerun'), { engines: ['onnx-cpu'], extraEngines: [held] });
  t.after(() => dash.close());
  t.after(release);
  const first = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND }, { 'x-inferbench-client': 'web' });
  const a = await waitForEnd(dash.url, first.body.id);
  assert.equal(a.state, 'completed');
  assert.equal(a.source, 'web');

  const rerun = await call(dash.url, 'POST', `/api/runs/${a.id}/rerun`);
  assert.equal(rerun.status, 201);
  assert.equal(rerun.body.rerunOf, a.id);
  const b = await waitForEnd(dash.url, rerun.body.id);
  assert.equal(b.state, 'completed');
  assert.equal(b.rerunOf, a.id);
  assert.deepEqual(b.config, a.config, 'the same resolved settings');
  assert.notEqual(b.dir, a.dir);
  assert.equal((await call(dash.url, 'POST', '/api/runs/99/rerun')).status, 404);

  const removed = await call(dash.url, 'DELETE', `/api/runs/${a.id}`);
  assert.equal(removed.status, 200, JSON.stringify(removed.body));
  assert.equal(removed.body.deletedDir, a.dir);
  assert.ok(!existsSync(a.dir), 'the run folder is deleted');
  assert.equal((await call(dash.url, 'GET', `/api/runs/${a.id}`)).status, 404);
  const list = (await call(dash.url, 'GET', '/api/runs')).body.entries as { id: number; rerunOf: number }[];
  assert.deepEqual(list.map((e) => [e.id, e.rerunOf]), [[b.id, a.id]], 'the re-run keeps its link to the removed entry');

  // A run being measured cannot be removed until it is cancelled; it then keeps its measured cells as interrupted.
  const slow = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, engines: ['held-mock'], batchSizes: [1, 2, 3, 4] });
  await waitFor('a cell of the slow run', async () => ((await call(dash.url, 'GET', '/api/runs')).body.current?.done >= 1 ? true : undefined));
  const busy = await call(dash.url, 'DELETE', `/api/runs/${slow.body.id}`);
  assert.equal(busy.status, 409);
  assert.match(busy.body.error, /is running/);
  assert.equal((await call(dash.url, 'POST', `/api/runs/${slow.body.id}/cancel`)).status, 200);
  release();
  const stopped = await waitForEnd(dash.url, slow.body.id);
  assert.equal(stopped.state, 'interrupted');
  assert.ok(stopped.cellsDone >= 1);
  assert.equal((await call(dash.url, 'DELETE', `/api/runs/${slow.body.id}`)).status, 200);
});
