import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { reapedChildSeconds } from '../../../src/core/host-noise.js';

test('reapedChildSeconds grows by the CPU of a child once it is reaped (what the test runner and bench:default-run read per child)', async (t) => {
  const before = reapedChildSeconds();
  if (before === null) return t.skip('no /proc/self/stat: not Linux');
  // The child burns until its own clock says 300 ms of CPU, whatever the machine's speed, and prints what it used.
  const burn = 'const s=process.cpuUsage();while(true){const u=process.cpuUsage(s);if(u.user+u.system>=300000){console.log(u.user+u.system);break;}}';
  const used = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', burn], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(Number(out) / 1e6));
  });
  const after = reapedChildSeconds();
  assert.ok(after !== null);
  // Clock ticks are 10 ms; the child's own count excludes its startup, so the reaped total is at least its loop, less one tick.
  assert.ok(after - before >= used - 0.01, `reaped ${after - before} s, the child used ${used} s in its loop`);
});
