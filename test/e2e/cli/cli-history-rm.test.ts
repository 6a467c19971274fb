import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI, runCli } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** `inferbench rm` with `answer` typed on stdin. */
function rmAnswering(args: string[], answer: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'rm', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(answer);
  });
}

test('rm asks first, removes the entry and its run folder on yes, and --yes skips the question', async () => {
  const out = testOutputDir('cli-history-rm');
  const { dir: dir1 } = await seedEntry(out, 'run-one');
  const { dir: dir2 } = await seedEntry(out, 'run-two');

  const no = await rmAnswering(['1', '--out', out], 'n\n');
  assert.equal(no.code, 1);
  assert.match(no.stderr, /Remove benchmark 1 \(mini-bert-l4-h256, completed\) and delete .*\? \[y\/N\] /);
  assert.match(no.stderr, /nothing removed/);
  assert.ok(existsSync(dir1));

  const silent = await rmAnswering(['1', '--out', out], '');
  assert.equal(silent.code, 1, 'no answer (EOF) is no');
  assert.ok(existsSync(dir1));

  const yes = await rmAnswering(['1', '--out', out], 'y\n');
  assert.equal(yes.code, 0, yes.stderr);
  assert.match(yes.stdout, /Removed benchmark 1 and /);
  assert.ok(!existsSync(dir1), 'the run folder is gone');

  const forced = await runCli(['rm', '2', '--yes', '--out', out]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(!existsSync(dir2));
  assert.match((await runCli(['list', '--out', out])).stdout, /No benchmarks/);
});
