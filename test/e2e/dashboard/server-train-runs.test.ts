import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, startTestDashboard, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** The API takes every option the CLI takes (issue 47): `inferbench train`'s too, at POST /api/train, checked as the CLI checks them. */
test('the dashboard queues a train run (POST /api/train, checked like the CLI) and answers its step-time view', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-train'), { engines: ['tfjs-cpu'] });
  t.after(() => dash.close());

  for (const [body, field] of [[{ steps: 0 }, 'steps'], [{ optimizer: 'lion' }, 'optimizer'], [{ engineOptions: ['tfjs-cpu:x=1'] }, 'engineOptions'], [{ out: '/tmp' }, 'out']] as const) {
    const bad = await call(dash.url, 'POST', '/api/train', body);
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.field, field, JSON.stringify(bad.body));
  }

  const added = await call(dash.url, 'POST', '/api/train', { engines: ['tfjs-cpu'], batchSizes: [4], steps: 2, warmSteps: 0, rounds: 1, isolate: false, png: false });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const done = await waitForEnd(dash.url, added.body.id, 240_000);
  assert.equal(done.state, 'completed', JSON.stringify(done));
  assert.equal(done.config.command, 'train');
  assert.equal(done.config.steps, 2);
  const views = await call(dash.url, 'GET', `/api/runs/${added.body.id}/views`);
  assert.equal(views.status, 200, JSON.stringify(views.body));
});
