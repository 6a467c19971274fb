import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

test('--out where no folder can be made fails at once with a clear error instead of hanging', async () => {
  const base = testOutputDir('bad-input-unwritable-out');
  const file = join(base, 'a-file');
  writeFileSync(file, 'not a folder');
  const cases: [string[], RegExp][] = [
    // Node 20's recursive mkdir spins forever here (procfs answers ENOENT).
    [['run', '--out', '/proc/inferbench'], /cannot create the output folder \/proc\/inferbench/],
    [['generate', '--out', '/proc/inferbench/deeper'], /cannot create the output folder \/proc\/inferbench\/deeper/],
    [['run', '--out', '/sys/inferbench'], /cannot create the output folder \/sys\/inferbench: permission denied/],
    [['run', '--out', join(file, 'sub')], /a-file is a file, not a folder/],
  ];
  for (const [args, message] of cases) {
    // A hang never ends on its own: runCli rejects ("timed out") past this bound, which only ends the test. The CLI must
    // end by itself, with its error; how soon depends on the machine's load, so no wall time is asserted.
    const r = await runCli(args, { timeoutMs: 180_000 });
    assert.ok(isCleanUserError(r), `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /fix: pass --out a folder you can write to/);
  }
});

test('--out in a folder this user may not write is refused before the run starts', (t) => {
  if (process.getuid?.() !== 0 || spawnSync('setpriv', ['--version']).status !== 0) {
    t.skip('needs root and setpriv to run the CLI as nobody');
    return;
  }
  const base = testOutputDir('bad-input-unwritable-out-nobody');
  const locked = join(base, 'locked');
  mkdirSync(locked);
  chmodSync(base, 0o755);
  chmodSync(locked, 0o555);
  const cache = useTestCache();
  const r = spawnSync('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', process.execPath, CLI, 'run', '--out', join(locked, 'out'), '--no-png'], {
    env: { ...process.env, INFERBENCH_CACHE: cache, HOME: '/tmp' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (/Permission denied|EACCES/.test(r.stderr) && !r.stderr.includes('inferbench:')) {
    t.skip(`nobody cannot run the CLI from this checkout: ${r.stderr.split('\n')[0]}`);
    return;
  }
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`cannot create the output folder ${join(locked, 'out')}: permission denied`));
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.deepEqual(readdirSync(locked), [], 'nothing was written');
});
