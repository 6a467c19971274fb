import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestDashboard, TINY_RUN_ONE_ROUND, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('POST /api/runs takes null in threads as the engine default, as the CLI resolver does, and runs it', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-threads-default'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const alone = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, batchSizes: [1], threads: [null] });
  assert.equal(alone.status, 201, JSON.stringify(alone.body));
  const done = await waitForEnd(dash.url, alone.body.id, 120_000);
  assert.equal(done.state, 'completed', JSON.stringify(done));
  assert.deepEqual(done.config.threads, [null]);
  const detail = await call(dash.url, 'GET', `/api/runs/${alone.body.id}`);
  assert.deepEqual(detail.body.entry.cells.map((c: { requestedThreads: number | null }) => c.requestedThreads), [null]);

  // Beside a count, and still bounded like the CLI's --threads.
  const mixed = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, batchSizes: [1], threads: [null, 1] });
  assert.equal(mixed.status, 201, JSON.stringify(mixed.body));
  const tooMany = await call(dash.url, 'POST', '/api/runs', { threads: [null, 1e6] });
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.field, 'threads');
  assert.equal((await waitForEnd(dash.url, mixed.body.id, 120_000)).state, 'completed');
});
