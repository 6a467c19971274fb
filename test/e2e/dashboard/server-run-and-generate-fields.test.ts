import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestDashboard, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('the dashboard API accepts the run fields the CLI has (dtypes, sequenceLengths, several models) and generate requests', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-all-fields'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());

  const run = await call(dash.url, 'POST', '/api/runs', {
    engines: ['onnx-cpu'],
    dtypes: ['fp32'],
    sequenceLengths: [8],
    batchSizes: [1],
    limit: 4,
    rounds: 1,
    warmupBatches: 0,
    stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 2000 },
    isolate: false,
    png: false,
  });
  assert.equal(run.status, 201, JSON.stringify(run.body));
  const done = await waitForEnd(dash.url, run.body.id, 120_000);
  assert.equal(done.state, 'completed', JSON.stringify(done));
  assert.deepEqual(done.config.dtypes, ['fp32']);
  assert.deepEqual(done.config.sequenceLengths, [8]);

  const badDtype = await call(dash.url, 'POST', '/api/runs', { dtypes: ['fp99'] });
  assert.equal(badDtype.status, 400);
  assert.equal(badDtype.body.field, 'dtypes');

  const gen = await call(dash.url, 'POST', '/api/generate', {
    engines: ['onnx-cpu'],
    batchSizes: [1],
    promptLengths: [8],
    newTokens: [4],
    runs: 2,
    warmupRuns: 0,
    isolate: false,
    png: false,
  });
  assert.equal(gen.status, 201, JSON.stringify(gen.body));
  const genDone = await waitForEnd(dash.url, gen.body.id, 120_000);
  assert.equal(genDone.state, 'completed', JSON.stringify(genDone));
  assert.equal(genDone.config.command, 'generate');

  const badGen = await call(dash.url, 'POST', '/api/generate', { promptLengths: [0] });
  assert.equal(badGen.status, 400);
  assert.equal(badGen.body.field, 'promptLengths');
  assert.match(badGen.body.error, /promptLengths must be a whole number from 1 to 65536 tokens, got 0/);
  const runFieldOnGenerate = await call(dash.url, 'POST', '/api/generate', { dtypes: ['fp32'] });
  assert.equal(runFieldOnGenerate.status, 400);
  assert.equal(runFieldOnGenerate.body.field, 'dtypes');
});
