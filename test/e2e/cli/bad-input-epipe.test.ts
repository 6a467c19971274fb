import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

/** Runs the CLI with stdout a pipe whose reader is already gone (as `| head -1` leaves it), so every write gets EPIPE. */
function runWithClosedStdout(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // No Chromium for `engines`: how the CLI ends on EPIPE is the subject, and the browser engines' capability probe (a
    // Chromium started and asked, about 4 CPU-s) only delays the first write; their lines still print, as unavailable.
    const env = { ...process.env, INFERBENCH_CACHE: useTestCache(), INFERBENCH_CHROMIUM: '/nonexistent/chromium' };
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`inferbench ${args.join(' ')} hung after its reader went away`));
    }, 180_000); // a hang detector only: `engines` probes every engine (WebGPU included) before its first write
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

test('a reader that stops early (| head -1) ends the CLI quietly with exit 0, for every command', async () => {
  const out = join(testOutputDir('bad-input-epipe'), 'out');
  const { id } = await seedEntry(out, '2026-01-01T00-00-00Z-000000');
  for (const args of [['show', String(id), '--out', out], ['list', '--out', out], ['--help'], ['engines']]) {
    const r = await runWithClosedStdout(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /EPIPE|internal error|\n\s+at /, args.join(' '));
  }
});
