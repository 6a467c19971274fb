import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { alive, descendantsOf } from '../../helpers/process-tree.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

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

/** One kind of child: the command that starts it, how to find it, how long it works before the kill, and how long it may outlive its parent. */
type Kind = readonly [name: string, args: readonly string[], marker: string | RegExp, settleMs: number, limitMs: number];

test('children of every kind (training, cell, generation, browser) die within a second of a parent killed mid-work with SIGKILL', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async (t) => {
  const out = join(testOutputDir('children-die'), 'out');
  const files = ['--no-png', '--out', out];
  const kinds: Kind[] = [
    // A training round never let its lifeline be read: each step keeps the event loop busy (about 3 s here under load).
    ['training', ['train', '--engines', 'tfjs-cpu', '--steps', '150', '--warm-steps', '0', '--batch-sizes', '8', '--rounds', '1', ...files], 'scenario-child.js train', 8000, 1000],
    ['cell', ['run', '--engines', 'tfjs-cpu', '--batch-sizes', '32', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], 'scenario-child.js classify', 8000, 1000],
    // Killed as soon as the child appears, while it imports its engine: the old IPC 'disconnect' watch was not in place yet.
    ['cell while importing its engine', ['run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--min-time', '60', '--max-time', '120', '--reference', 'none', ...files], 'scenario-child.js classify', 0, 500],
    ['generation', ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '32', '--new-tokens', '64', '--runs', '10000', ...files], 'scenario-child.js generate', 8000, 1000],
    ['browser', ['run', '--engines', 'browser-onnx-wasm', '--batch-sizes', '1', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], /chromium/, 5000, 1000],
  ];
  for (const [kind, args, marker, settleMs, limitMs] of kinds) {
    await t.test(kind, { skip: kind === 'browser' ? NO_CHROMIUM : false }, async () => {
      const lived = await livedAfterParent(args, marker, settleMs);
      assert.ok(lived < limitMs, `${kind}: its processes lived ${lived} ms after their parent was killed`);
    });
  }
});
