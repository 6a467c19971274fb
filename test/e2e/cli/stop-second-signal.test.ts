import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../../../src/core/package-info.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a second stop signal exits at once with 128 + its number, removing the temporaries still open: no half-written file stays', async () => {
  const dir = testOutputDir('stop-second-signal');
  const target = join(dir, 'results.json');
  const dist = join(packageRoot(), 'dist', 'src');
  // A command in the middle of writing: a temporary beside its target, open, while it measures (never finishing).
  const script = `
    const { stopOnSignals } = await import(${JSON.stringify(join(dist, 'cli', 'stop-signals.js'))});
    const { temporaryPath, trackTemporary } = await import(${JSON.stringify(join(dist, 'core', 'temporaries.js'))});
    const { writeFileSync } = await import('node:fs');
    const stop = stopOnSignals('batch');
    const temp = temporaryPath(${JSON.stringify(target)}, 'tmp');
    trackTemporary(temp);
    writeFileSync(temp, 'half of a file');
    console.log(temp);
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let onStderr = () => {};
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr();
  });
  const temp = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) resolve(stdout.trim());
    });
    child.once('exit', (c) => reject(new Error(`the command ended (${c}) before writing:\n${stderr}`)));
  });
  assert.ok(existsSync(temp), 'the temporary is being written');
  // The first signal only asks to stop after the current unit: the process says so and keeps running.
  await new Promise<void>((resolve) => {
    onStderr = () => (/SIGTERM: stopping after the current batch/.test(stderr) ? resolve() : undefined);
    child.kill('SIGTERM');
  });
  assert.equal(child.exitCode, null, 'the first signal lets the current unit finish');
  const code = await new Promise<number | null>((resolve) => {
    child.on('exit', (c) => resolve(c));
    child.kill('SIGHUP');
  });
  assert.equal(code, 129, 'exit code 128 + SIGHUP');
  assert.ok(!existsSync(temp), 'the temporary was removed on the way out');
  assert.ok(!existsSync(target));
});
