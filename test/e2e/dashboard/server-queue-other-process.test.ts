import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { call, listenToEvents, startTestDashboard, TINY_RUN_ONE_ROUND, waitFor, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a dashboard run waits while another process on this machine is measuring into the same history', async (t) => {
  const out = testOutputDir('server-queue-other');
  const dash = await startTestDashboard(out, { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const stream = await listenToEvents(dash.url);
  t.after(() => stream.stop());

  // Another process (a CLI run, say) holds a running entry until its stdin is closed below.
  const other = spawn(process.execPath, [join(packageRoot(), 'dist', 'test', 'helpers', 'history-writer.js'), 'hold', out], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.after(() => other.kill());
  const ended = new Promise((resolve) => other.once('exit', resolve));
  let printed = '';
  other.stdout.on('data', (d: Buffer) => (printed += d.toString()));
  const otherId = Number(await waitFor('the other process to start', async () => (printed.includes('\n') ? printed.trim() : undefined)));

  const added = await call(dash.url, 'POST', '/api/runs', TINY_RUN_ONE_ROUND);
  assert.equal(added.status, 201);
  const waiting = await waitFor('a waiting event', async () => stream.events.find((e) => e.type === 'waiting'));
  assert.equal(waiting.data.id, added.body.id);
  assert.match(waiting.data.reason, new RegExp(`waiting for benchmark ${otherId} \\(process ${other.pid}\\) to finish`));
  assert.equal((await call(dash.url, 'GET', `/api/runs/${added.body.id}`)).body.entry.state, 'queued', 'not started meanwhile');

  other.stdin.end();
  await ended;
  const entry = await waitForEnd(dash.url, added.body.id);
  assert.equal(entry.state, 'completed');
  const otherEntry = (await call(dash.url, 'GET', `/api/runs/${otherId}`)).body.entry;
  assert.ok(entry.startedAt >= otherEntry.finishedAt, 'started only after the other run finished');
});
