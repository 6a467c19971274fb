import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from './fixtures/cli.js';
import { NO_CHROMIUM } from './fixtures/browser.js';
import { alive, descendantsOf } from './fixtures/process-tree.js';
import { testOutputDir, useTestCache } from './fixtures/test-cache.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts `inferbench <args>`, waits until processes matching `marker` run
 * below it and have worked for `settleMs` (a training round, a batch, a
 * page under way), SIGKILLs the CLI, and answers how long the last of them
 * lived on.
 */
async function livedAfterParent(args: readonly string[], marker: string | RegExp, settleMs: number): Promise<number> {
  const parent = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, INFERBENCH_CACHE: useTestCache() }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  parent.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let children: number[] = [];
  try {
    const deadline = Date.now() + 120_000;
    while (children.length === 0 && Date.now() < deadline && parent.exitCode === null) {
      await sleep(100);
      children = descendantsOf(parent.pid as number, marker);
    }
    assert.ok(children.length > 0, `no ${marker} process appeared below inferbench ${args[0]}:\n${stderr}`);
    await sleep(settleMs);
    assert.equal(parent.exitCode, null, `inferbench ${args[0]} ended before it was killed:\n${stderr}`);
    children = descendantsOf(parent.pid as number, marker);
    parent.kill('SIGKILL');
    const killedAt = Date.now();
    while (children.some(alive) && Date.now() - killedAt < 60_000) await sleep(10);
    return Date.now() - killedAt;
  } finally {
    if (parent.exitCode === null) parent.kill('SIGKILL');
    for (const pid of children.filter(alive)) process.kill(pid, 'SIGKILL');
  }
}

test('children of every kind (training, cell, generation, browser) die within a second of a parent killed mid-work with SIGKILL', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async () => {
  const out = join(testOutputDir('children-die'), 'out');
  const files = ['--no-png', '--out', out];
  const kinds: [string, string[], string | RegExp, number][] = [
    // A training round never let its lifeline be read: each step keeps the event loop busy (about 3 s here under load).
    ['training', ['train', '--engines', 'tfjs-cpu', '--steps', '150', '--warm-steps', '0', '--batch-sizes', '8', '--rounds', '1', ...files], 'training-child.js', 8000],
    ['cell', ['run', '--engines', 'tfjs-cpu', '--batch-sizes', '32', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], 'cell-child.js', 8000],
    ['generation', ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '32', '--new-tokens', '64', '--runs', '10000', ...files], 'generation-child.js', 8000],
  ];
  if (!NO_CHROMIUM) kinds.push(['browser', ['run', '--engines', 'browser-onnx-wasm', '--batch-sizes', '1', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], /chromium/, 5000]);
  for (const [kind, args, marker, settleMs] of kinds) {
    const lived = await livedAfterParent(args, marker, settleMs);
    assert.ok(lived < 1000, `${kind}: its processes lived ${lived} ms after their parent was killed`);
  }
});
