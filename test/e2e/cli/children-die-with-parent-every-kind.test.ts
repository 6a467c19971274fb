import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { alive, commandOf, cpuMsOf, descendantsOf } from '../../helpers/process-tree.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * When the processes found are under way: a progress line on stderr (a
 * training round has begun), or their CPU time together past `cpuMs` (past
 * their imports: a batch, a page at work), or at once (0: still importing).
 * An event, not a fixed wait: a busy child is killed as soon as it works.
 */
type Ready = { readonly line: RegExp } | { readonly cpuMs: number };

/**
 * A child is started as `setpriv --pdeathsig KILL -- node …` (core/parent-death.ts), so for a moment its command line
 * already names the child while setpriv has not yet asked the kernel for the signal. Stopped there, it never gets it
 * (a case no real parent's death meets: left running, setpriv goes on to exec the child, which sees its IPC channel
 * closed), and the check failed now and then on the test's own timing. A process counts once it runs the child.
 */
function pastSetpriv(pid: number): boolean {
  return !/^\S*\bsetpriv /.test(commandOf(pid));
}

/**
 * Starts `inferbench <args>`, waits until processes matching `marker` run
 * below it and are `ready`, stops them (SIGSTOP), SIGKILLs the CLI, and
 * answers how long the last of them lived on. A stopped process runs no code
 * of its own: it cannot notice a closed pipe or a lifeline, so it dies only
 * if the kernel's parent-death signal, or a watchdog's kill, reaches it. That
 * makes the check a matter of mechanism, not of how fast a loaded machine
 * lets a child notice. Shells are left running: the watchdog between
 * inferbench and Chromium is one (engines/browser/chromium.ts).
 */
async function livedAfterParent(args: readonly string[], marker: string | RegExp, ready: Ready): Promise<number> {
  const parent = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, INFERBENCH_CACHE: useTestCache() }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  parent.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let children: number[] = [];
  const isReady = (): boolean => ('line' in ready ? ready.line.test(stderr) : children.reduce((sum, pid) => sum + cpuMsOf(pid), 0) >= ready.cpuMs);
  try {
    const deadline = Date.now() + 120_000;
    while ((children.length === 0 || !isReady()) && Date.now() < deadline && parent.exitCode === null) {
      await sleep(100);
      children = descendantsOf(parent.pid as number, marker).filter(pastSetpriv);
    }
    assert.ok(children.length > 0, `no ${marker} process appeared below inferbench ${args[0]}:\n${stderr}`);
    assert.ok(isReady(), `the ${marker} processes below inferbench ${args[0]} never got under way (${JSON.stringify(ready, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))}):\n${stderr}`);
    assert.equal(parent.exitCode, null, `inferbench ${args[0]} ended before it was killed:\n${stderr}`);
    children = descendantsOf(parent.pid as number, marker).filter(pastSetpriv);
    for (const pid of children.filter((p) => !commandOf(p).startsWith('/bin/sh '))) process.kill(pid, 'SIGSTOP');
    parent.kill('SIGKILL');
    const killedAt = Date.now();
    while (children.some(alive) && Date.now() - killedAt < LIMIT_MS) await sleep(10);
    return Date.now() - killedAt;
  } finally {
    if (parent.exitCode === null) parent.kill('SIGKILL');
    for (const pid of children.filter(alive)) process.kill(pid, 'SIGKILL');
  }
}

/** One kind of child: the command that starts it, how to find it, and when it is at work. */
type Kind = readonly [name: string, args: readonly string[], marker: string | RegExp, ready: Ready];

/**
 * How long a stopped child may outlive its parent. Left alone, each would live
 * for its whole cell (a minute and more); killed, they go in milliseconds. The
 * bound only ends the test, so it is far from both.
 */
const LIMIT_MS = 10_000;

test('children of every kind (training, cell, generation, browser) die with a parent killed mid-work with SIGKILL, even stopped (SIGSTOP) so that they cannot notice it themselves', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async (t) => {
  const out = join(testOutputDir('children-die'), 'out');
  const files = ['--no-png', '--out', out];
  const kinds: Kind[] = [
    // A training round never let its lifeline be read: each step keeps the event loop busy (150 steps: many seconds). Killed once its round has begun.
    ['training', ['train', '--engines', 'tfjs-cpu', '--steps', '150', '--warm-steps', '0', '--batch-sizes', '8', '--rounds', '1', ...files], 'scenario-child.js train', { line: /round 1\/1 tfjs-cpu batch 8/ }],
    // Past its imports (tfjs-cpu and the model: under a CPU-second here), in its 120 s cell.
    ['cell', ['run', '--engines', 'tfjs-cpu', '--batch-sizes', '32', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], 'scenario-child.js classify', { cpuMs: 2000 }],
    // Killed as soon as the child appears, while it imports its engine: the old IPC 'disconnect' watch was not in place yet.
    ['cell while importing its engine', ['run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--min-time', '60', '--max-time', '120', '--reference', 'none', ...files], 'scenario-child.js classify', { cpuMs: 0 }],
    // Past onnxruntime-node's import (well under a CPU-second), among its 10000 generations.
    ['generation', ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '32', '--new-tokens', '64', '--runs', '10000', ...files], 'scenario-child.js generate', { cpuMs: 1500 }],
    // Chromium's processes together past their start (about a CPU-second), with the page at work.
    ['browser', ['run', '--engines', 'browser-onnx-wasm', '--batch-sizes', '1', '--limit', '64', '--min-time', '120', '--max-time', '240', '--reference', 'none', '--rounds', '1', ...files], /chromium/, { cpuMs: 3000 }],
  ];
  for (const [kind, args, marker, ready] of kinds) {
    await t.test(kind, { skip: kind === 'browser' ? NO_CHROMIUM : false }, async () => {
      const lived = await livedAfterParent(args, marker, ready);
      assert.ok(lived < LIMIT_MS, `${kind}: its processes, stopped, still lived ${lived} ms after their parent was killed`);
    });
  }
});
