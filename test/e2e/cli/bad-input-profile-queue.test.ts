import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';

test('--profile with --queue is refused with the fix, before any queue is reached, rather than run without the profile', async () => {
  const out = mkdtempSync(join(tmpdir(), 'inferbench-profile-queue-'));
  try {
    const r = await runCli(['run', '--engines', 'onnx-cpu', '--profile', '--queue', 'redis://127.0.0.1:1', '--out', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.match(r.stderr, /--profile cannot be used with --queue yet/);
    assert.match(r.stderr, /drop --profile for the distributed sweep/);
    assert.deepEqual(readdirSync(out).filter((n) => /^\d{4}-/.test(n)), [], 'no run folder');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
