import assert from 'node:assert/strict';
import { execFileSync, type spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from './fixtures/cli.js';
import { HF_FIXTURES_DIR } from './fixtures/hf-fixtures.js';
import { testOutputDir } from './fixtures/test-cache.js';

/** Command lines of the direct children of `pid`, read from ps. */
function childCommands(pid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' }).split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
}

test('inferbench train runs each engine in a child process by default, and in this process with --no-isolate', async () => {
  const args = ['train', '--model', join(HF_FIXTURES_DIR, 'bert'), '--engines', 'tfjs-wasm', '--batch-sizes', '4', '--steps', '20', '--warm-steps', '0', '--rounds', '1', '--no-png'];
  for (const isolate of [true, false]) {
    const seen = new Set<string>();
    let watching = false;
    const watch = (_text: string, child: ReturnType<typeof spawn>) => {
      if (watching || child.pid === undefined) return;
      watching = true;
      const pid = child.pid;
      const timer = setInterval(() => {
        for (const c of childCommands(pid)) seen.add(c);
      }, 20);
      child.on('exit', () => clearInterval(timer));
    };
    const r = await runCli([...args, ...(isolate ? [] : ['--no-isolate']), '--out', testOutputDir('train-isolated')], { onStderr: watch });
    assert.equal(r.code, 0, r.stderr);
    assert.equal([...seen].some((c) => c.includes('training-child.js')), isolate, `children seen: ${[...seen].join(' | ') || 'none'}`);
  }
});
