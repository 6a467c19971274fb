import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, startTestDashboard, TINY_RUN, TINY_RUN_ONE_ROUND, waitFor, waitForEnd } from '../helpers/dashboard.js';
import { createHeldEngine } from '../helpers/mock-engine.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('a folder swapped for a symlink to outside --root between queueing and running is refused when the run starts', async (t) => {
  const base = testOutputDir('bad-input-symlink-swap');
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'data'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'data', 'rows.jsonl'), '{"text": "fine", "label": 1}\n');
  writeFileSync(join(outside, 'rows.jsonl'), '{"secret_column_name": "secret value"}\n');
  // The first run's engine opens only once the test says so: the queue stays busy, for as long as the swap takes, at no CPU.
  const { engine: held, release } = createHeldEngine('held-mock');
  const dash = await startTestDashboard(join(base, 'out'), { root, engines: ['onnx-cpu'], extraEngines: [held] });
  t.after(() => dash.close());
  t.after(release);

  // The first run keeps the queue busy while the second waits.
  const first = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, engines: ['held-mock'] });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  await waitFor('the first run to start', async () => ((await call(dash.url, 'GET', `/api/runs/${first.body.id}`)).body.entry.state === 'running' ? true : undefined));
  const second = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN, dataset: 'data/rows.jsonl' });
  assert.equal(second.status, 201, 'the path is inside the root when queued');
  assert.equal((await call(dash.url, 'GET', `/api/runs/${second.body.id}`)).body.entry.state, 'queued');

  renameSync(join(root, 'data'), join(root, 'data-old'));
  symlinkSync(outside, join(root, 'data'));
  release();

  const ended = await waitForEnd(dash.url, second.body.id);
  assert.equal(ended.state, 'failed');
  assert.match(ended.error, /dataset ".*rows\.jsonl" is outside the folders this dashboard may read/);
  assert.doesNotMatch(JSON.stringify(ended), /secret_column_name|secret value/, 'nothing of the outside file reached the API');
  assert.equal((await waitForEnd(dash.url, first.body.id)).state, 'completed');
});
