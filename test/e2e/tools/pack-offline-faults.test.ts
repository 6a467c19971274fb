/**
 * pack:offline under faults: a full disk (a small tmpfs in a mount
 * namespace) ends in one line and exit 2 with no hang and no file under
 * the pack's name; SIGTERM while compressing kills tar and xz and removes
 * the .partial file and the staging folder; a later build removes what a
 * killed one left.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageRoot } from '../../../src/core/package-info.js';
import { sweepPackLeftovers } from '../../../tools/pack-offline.js';

const TOOL = join(packageRoot(), 'dist', 'tools', 'pack-offline.js');

function mountSkip(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt'], { encoding: 'utf8' });
  return probe.status === 0 ? null : `unshare -m with a tmpfs mount is not permitted here: ${(probe.stderr || probe.error?.message || '').trim()}`;
}

test('a full disk under pack:offline: one line, exit 2, no hang, no file under the pack name, no .partial left', { skip: mountSkip() ?? false }, () => {
  const base = mkdtempSync(join(tmpdir(), 'ib-pack-full-'));
  const mount = join(base, 'm');
  mkdirSync(mount);
  const script = `mount -t tmpfs -o size=512k tmpfs '${mount}' || exit 90; '${process.execPath}' '${TOOL}' --engines onnx-cpu --xz-preset 0 --out '${mount}/p.tar.xz'; rc=$?; echo "==LEFT $(ls -A '${mount}')"; exit $rc`;
  const r = spawnSync('unshare', ['-m', 'sh', '-c', script], { encoding: 'utf8', timeout: 300_000 });
  rmSync(base, { recursive: true, force: true });
  assert.notEqual(r.signal, 'SIGTERM', 'the build hung on a full disk');
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^error: cannot write \S+p\.tar\.xz: no space left on device\nfix: free some space/m);
  assert.doesNotMatch(r.stderr, /\n\s+at |ENOSPC/);
  assert.match(r.stdout, /==LEFT \n?$/, `nothing left on the full disk: ${r.stdout}`);
});

test('SIGTERM while compressing removes the .partial file and the staging folder and exits 143; a later build sweeps a killed one\'s leftovers', async (t) => {
  const base = mkdtempSync(join(tmpdir(), 'ib-pack-stop-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const child = spawn(process.execPath, [TOOL, '--engines', 'onnx-cpu', '--xz-preset', '9', '--out', join(base, 'p.tar.xz')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const partial = `.p.tar.xz.${child.pid}.partial`;
  // Waits for compression to start (the .partial file appears), however long staging takes on this machine.
  while (!readdirSync(base).includes(partial)) {
    if (child.exitCode !== null) assert.fail(`the build ended before compressing: ${stderr}`);
    await new Promise((done) => setTimeout(done, 50));
  }
  const stages = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`inferbench-pack-${child.pid}-`));
  assert.equal(stages().length, 1);
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
  assert.equal(code, 143, stderr);
  assert.match(stderr, /pack stopped by SIGTERM/);
  assert.deepEqual(readdirSync(base), []);
  assert.deepEqual(stages(), []);
  // What a SIGKILLed build leaves (no process 2^22 + 1 exists) goes with the next build.
  const dead = 4194305;
  writeFileSync(join(base, `.p.tar.xz.${dead}.partial`), 'x');
  mkdirSync(join(tmpdir(), `inferbench-pack-${dead}-abc`));
  const removed = sweepPackLeftovers(join(base, 'p.tar.xz'));
  assert.equal(removed.length, 2, removed.join(', '));
  assert.equal(existsSync(join(tmpdir(), `inferbench-pack-${dead}-abc`)), false);
  assert.deepEqual(readdirSync(base), []);
});
