import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLI } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

/** Runs export, sending `sig` as soon as its temporary folder appears; answers the exit code and whether the signal was sent. */
function exportStopped(out: string, sig: NodeJS.Signals): Promise<{ code: number | null; sent: boolean; stderr: string }> {
  const base = join(out, '..');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'export', '--model', join(HF_FIXTURES_DIR, 'bert'), '--format', 'saved-model', '--out', out], {
      env: { ...process.env, INFERBENCH_CACHE: useTestCache() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const poll = setInterval(() => {
      if (sent || !readdirSync(base).some((f) => f.includes('.partial-'))) return;
      sent = true;
      child.kill(sig);
    }, 2);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      resolve({ code, sent, stderr });
    });
  });
}

test('a stop during export removes its temporary folder and exits 128 + the signal; the next export removes one a killed export left', async (t) => {
  const base = testOutputDir('stop-export');
  for (const [sig, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    const out = join(base, `model-${sig}`);
    const r = await exportStopped(out, sig);
    if (!r.sent) {
      t.skip(`export finished before its temporary folder was seen (rc ${r.code}); nothing to stop`);
      return;
    }
    assert.equal(r.code, code, r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(readdirSync(base).filter((f) => f.includes('.partial-')), [], `${sig}: no temporary left`);
    assert.ok(!existsSync(out), `${sig}: no half-written --out`);
  }
  // A temporary of a process that no longer runs (pid 2^22 + 1 is above Linux's pid_max) goes with the next export there.
  const out = join(base, 'model');
  mkdirSync(`${out}.partial-4194305-abcdef`);
  const { runCli } = await import('../../helpers/cli.js');
  const r = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'bert'), '--format', 'saved-model', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readdirSync(base).filter((f) => f.includes('.partial-')), [], 'the stale temporary was removed');
});
