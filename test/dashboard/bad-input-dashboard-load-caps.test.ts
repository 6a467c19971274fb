import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, startTestDashboard } from '../helpers/dashboard.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('POST /api/load over a cap gets a 400 with the limit: 3,000 rates, and probes adding up to hours; nothing is queued', async (t) => {
  const dash = await startTestDashboard(testOutputDir('dashboard-load-caps'), { engines: ['onnx-cpu', 'onnx-wasm'] });
  t.after(() => dash.close());
  const many = await call(dash.url, 'POST', '/api/load', { engines: ['onnx-cpu'], rates: Array.from({ length: 3000 }, (_, i) => i + 1), durationMs: 1000, warmupMs: 0 });
  assert.equal(many.status, 400, JSON.stringify(many.body).slice(0, 300));
  assert.equal(many.body.field, 'rates');
  assert.match(many.body.error, /rates lists 3000 rates; one request may ask for at most 32/);

  const long = await call(dash.url, 'POST', '/api/load', { engines: ['onnx-cpu', 'onnx-wasm'], rates: [10, 20, 30, 40], durationMs: 600_000, warmupMs: 0, rounds: 3 });
  assert.equal(long.status, 400, JSON.stringify(long.body));
  assert.equal(long.body.field, 'durationMs');
  assert.match(long.body.error, /probes take up to 4\.0 h \(6 cells × 4 probes × 600\.0 s each\); one request may take at most 1\.0 h/);

  const runs = await call(dash.url, 'GET', '/api/runs');
  assert.equal(runs.status, 200);
  assert.equal((Array.isArray(runs.body) ? runs.body : (runs.body.runs ?? runs.body.entries ?? [])).length, 0, 'nothing queued');
});
