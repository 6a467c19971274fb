import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, listenToEvents, startTestDashboard, TINY_RUN_ONE_ROUND, waitForEnd } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('runs added from the API wait in a queue and run one at a time, with live progress on the event stream', async (t) => {
  const dash = await startTestDashboard(testOutputDir('server-queue'), { engines: ['onnx-cpu'] });
  t.after(() => dash.close());
  const stream = await listenToEvents(dash.url);
  t.after(() => stream.stop());

  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await call(dash.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, threads: [1, 2] });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids.push(r.body.id);
  }
  // Watch the states while they run: never two running at once.
  let maxRunning = 0;
  const watcher = (async () => {
    for (;;) {
      const { entries } = (await call(dash.url, 'GET', '/api/runs')).body as { entries: { state: string }[] };
      maxRunning = Math.max(maxRunning, entries.filter((e) => e.state === 'running').length);
      if (entries.every((e) => e.state === 'completed' || e.state === 'failed')) return entries;
      await new Promise((r) => setTimeout(r, 30));
    }
  })();
  const ends = await Promise.all(ids.map((id) => waitForEnd(dash.url, id)));
  await watcher;
  assert.deepEqual(ends.map((e) => e.state), ['completed', 'completed', 'completed']);
  assert.equal(maxRunning, 1, 'one benchmark at a time');
  for (let i = 1; i < ends.length; i++) {
    assert.ok(ends[i].startedAt >= ends[i - 1].finishedAt, `benchmark ${ids[i]} started after ${ids[i - 1]} finished`);
  }

  const events = stream.events;
  const order = events.filter((e) => e.type === 'started' || e.type === 'finished').map((e) => `${e.type} ${e.data.id}`);
  assert.deepEqual(order, ids.flatMap((id) => [`started ${id}`, `finished ${id}`]));
  assert.equal(events.filter((e) => e.type === 'queued').length, 3);
  const progress = events.filter((e) => e.type === 'progress' && e.data.progress.id === ids[0]).map((e) => e.data.progress);
  assert.ok(progress.some((p) => p.current?.engine === 'onnx-cpu' && p.current.batchSize === 1), 'the current cell is streamed');
  assert.deepEqual(
    progress.filter((p) => p.current === null || p.done > 0).map((p) => `${p.done}/${p.total}`).filter((x, i, all) => all.indexOf(x) === i),
    ['1/4', '2/4', '3/4', '4/4'],
    'cells done / total',
  );
  assert.equal(events[0]?.type, 'hello');
  assert.equal(ends[0].source, 'api');
});
