import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call, startTestDashboard, TINY_RUN } from '../helpers/dashboard.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('every run request field is validated like the CLI options; a bad one gets 400 naming the field', async (t) => {
  const base = testOutputDir('server-validation');
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.jsonl'), '{"text":"x"}\n');
  writeFileSync(join(root, 'data.jsonl'), '{"text":"fine"}\n');
  symlinkSync(join(outside, 'secret.jsonl'), join(root, 'link.jsonl'));
  const dash = await startTestDashboard(join(base, 'out'), { root, engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const pwned = join(base, 'pwned');

  const cases: [string, unknown, string, RegExp][] = [
    ['batch size 0', { batchSizes: [0] }, 'batchSizes', /batchSizes must be a positive integer, got 0/],
    ['batch sizes as a string', { batchSizes: '1,8' }, 'batchSizes', /non-empty list of whole numbers/],
    ['empty batch sizes', { batchSizes: [] }, 'batchSizes', /non-empty list/],
    ['negative core count', { threads: [1, -2] }, 'threads', /threads must be a positive integer, got -2/],
    ['too many cores', { threads: [100000] }, 'threads', /threads must be a whole number from 1 to \d+ threads \(4 × the \d+ cores of this machine\), got 100000/],
    ['unknown engine', { engines: ['onnx-gpu9000'] }, 'engines', /unknown engine "onnx-gpu9000" in engines/],
    ['limit 0', { limit: 0 }, 'limit', /limit must be a positive integer/],
    ['warmup -1', { warmupBatches: -1 }, 'warmupBatches', /warmupBatches must be a whole number/],
    ['max time below min time', { stop: { minTimeMs: 5000, maxTimeMs: 1000 } }, 'stop.maxTimeMs', /maximum time \(1000 ms\) is below the minimum time/],
    ['unknown stop field', { stop: { maxBatches: 3 } }, 'stop.maxBatches', /unknown field stop\.maxBatches/],
    ['unknown parity engine', { parity: { reference: 'nope' } }, 'parity.reference', /unknown engine "nope" in parity\.reference/],
    ['negative tolerance', { parity: { tolerance: -1 } }, 'parity.tolerance', /tolerance must be ≥ 0/],
    ['isolate as text', { isolate: 'yes' }, 'isolate', /isolate must be true or false/],
    ['unknown field', { command: 'rm -rf /' }, 'command', /unknown field command/],
    ['output folder', { out: '/tmp' }, 'out', /out cannot be set from the dashboard/],
    ['dataset traversal', { dataset: '../outside/secret.jsonl' }, 'dataset', /outside the folders this dashboard may read/],
    ['absolute dataset outside', { dataset: join(outside, 'secret.jsonl') }, 'dataset', /outside the folders/],
    ['symlink out of the root', { dataset: 'link.jsonl' }, 'dataset', /outside the folders/],
    ['missing model', { model: 'no-such-model' }, 'model', /model "no-such-model" does not exist under/],
    ['shell in a path', { model: `$(touch ${pwned})` }, 'model', /model .* (does not exist|is outside)/],
    ['unknown comparison', { compareWith: 999 }, 'compareWith', /no benchmark with id 999/],
    ['comparison not an id', { compareWith: 'latest' }, 'compareWith', /benchmark id or null/],
  ];
  for (const [what, body, field, message] of cases) {
    const r = await call(dash.url, 'POST', '/api/runs', body);
    assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.body)}`);
    assert.equal(r.body.field, field, what);
    assert.match(r.body.error, message, what);
  }
  assert.ok(!existsSync(pwned), 'no request ran a shell');

  const notJson = await call(dash.url, 'POST', '/api/runs', '{batchSizes: [1]', {});
  assert.equal(notJson.status, 400);
  assert.equal(notJson.body.field, 'body');
  const form = await fetch(new URL('/api/runs', dash.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'batchSizes=1' });
  assert.equal(form.status, 415, 'a plain HTML form cannot post a run');
  const badId = await call(dash.url, 'GET', '/api/runs/abc');
  assert.deepEqual([badId.status, badId.body.field], [400, 'id']);
  assert.equal((await call(dash.url, 'GET', '/api/runs/77')).status, 404);
  assert.deepEqual((await call(dash.url, 'GET', '/api/runs')).body.entries, [], 'nothing invalid was queued');

  const ok = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN, dataset: 'data.jsonl' });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  const entry = (await call(dash.url, 'GET', `/api/runs/${ok.body.id}`)).body.entry;
  assert.equal(entry.config.dataset, join(root, 'data.jsonl'), 'a path inside the root is resolved against it');
  assert.equal(entry.config.out, join(base, 'out'), 'runs go to the dashboard folder');
});
