import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { call, TINY_RUN, TINY_RUN_ONE_ROUND, waitFor } from '../../helpers/dashboard.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

/** Starts `inferbench serve` on a free port; resolves with the child and its URL once it prints it. */
function serve(out: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const cache = useTestCache();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--out', out], { env: { ...process.env, INFERBENCH_CACHE: cache }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    // Only ends a hang: on a loaded machine the dashboard's start can take many seconds.
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 120_000);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /inferbench dashboard: (http:\S+)/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${stderr}`)));
  });
}

test('a dashboard killed during a run: after restart the entry is interrupted and its finished cells are kept', async (t) => {
  const out = testOutputDir('server-crash');
  const first = await serve(out);
  t.after(() => first.child.kill('SIGKILL'));
  // Four cells of at least 1.5 s each, in one round (a cell is done only in its last round): 4.5 s or more to kill it after the first.
  const added = await call(first.url, 'POST', '/api/runs', { ...TINY_RUN_ONE_ROUND, batchSizes: [1, 2, 3, 4], limit: 64, stop: { minTimeMs: 1500, minBatches: 1, maxTimeMs: 3000 } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  const id = added.body.id as number;
  await waitFor('the first cell', async () => {
    const entry = (await call(first.url, 'GET', `/api/runs/${id}`)).body.entry;
    return entry.cellsDone >= 1 ? entry : undefined;
  });
  const exited = new Promise((resolve) => first.child.once('exit', resolve));
  first.child.kill('SIGKILL');
  await exited;

  const second = await serve(out);
  t.after(() => second.child.kill('SIGKILL'));
  const entry = (await call(second.url, 'GET', `/api/runs/${id}`)).body.entry;
  assert.equal(entry.state, 'interrupted');
  assert.match(entry.error, /process running it stopped before it finished/);
  assert.ok(entry.cellsDone >= 1 && entry.cellsDone < 4, `finished cells kept (${entry.cellsDone})`);
  assert.equal(entry.cellsTotal, 4);
  const completed = entry.cells.filter((c: { state: string }) => c.state === 'completed');
  assert.ok(completed.length >= 1);
  assert.ok(completed[0].samples.runMs.length >= 1, 'with their raw samples');
  const file = JSON.parse(readFileSync(join(entry.dir, 'results.json'), 'utf8')) as { state: string; cells: unknown[] };
  assert.equal(file.state, 'interrupted', 'results.json no longer says running');
  assert.ok(file.cells.length >= entry.cellsDone);
  await waitFor('the restart notice', async () => (/benchmark \d+ was left running by a process that died; marked interrupted/.test(second.stderr()) ? true : undefined), 60_000);

  // The restarted dashboard runs new work normally.
  const next = await call(second.url, 'POST', '/api/runs', TINY_RUN);
  assert.equal(next.status, 201);
  second.child.kill('SIGINT');
});
