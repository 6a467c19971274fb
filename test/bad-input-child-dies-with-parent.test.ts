import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from './fixtures/cli.js';
import { alive, descendantsOf } from './fixtures/process-tree.js';
import { testOutputDir, useTestCache } from './fixtures/test-cache.js';

test('an isolated engine child dies within 500 ms when its parent is killed with SIGKILL', async (t) => {
  if (process.platform !== 'linux') {
    t.skip('reads /proc to find the child');
    return;
  }
  const out = join(testOutputDir('bad-input-child-dies'), 'out');
  const parent = spawn(
    process.execPath,
    [CLI, 'run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--min-time', '60', '--max-time', '120', '--reference', 'none', '--no-png', '--out', out],
    { env: { ...process.env, INFERBENCH_CACHE: useTestCache() }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  parent.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  t.after(() => {
    if (parent.exitCode === null) parent.kill('SIGKILL');
  });
  const pid = parent.pid as number;
  let child: number | undefined;
  const deadline = Date.now() + 60_000;
  // The kill lands as soon as the child appears, while it imports its engine: the old IPC 'disconnect' watch was not in place yet.
  while (child === undefined && Date.now() < deadline) {
    child = descendantsOf(pid, 'cell-child.js')[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(child !== undefined, `no isolated child appeared: ${stderr}`);
  t.after(() => {
    if (child !== undefined && alive(child)) process.kill(child, 'SIGKILL');
  });
  assert.ok(alive(child), 'the child was running when the parent was killed');
  parent.kill('SIGKILL');
  const killedAt = Date.now();
  while (alive(child) && Date.now() - killedAt < 5000) await new Promise((r) => setTimeout(r, 20));
  const lived = Date.now() - killedAt;
  assert.ok(!alive(child), 'the child outlived its parent by more than 5 s');
  assert.ok(lived < 500, `the child lived ${lived} ms after its parent was killed`);
});
