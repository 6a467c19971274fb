import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROBE_MEMO_FOLDER, rememberedProbe, type ChildProbe } from '../../engines/tfjs/native-probe-memo.js';
import { counting } from '../helpers/counting-probe.js';
import { testOutputDir } from '../helpers/test-cache.js';

const PKG = '@tensorflow/tfjs-node';

/** A fake installed tfjs-node (binding and libtensorflow as the real layout has them) and an empty cache beside it. */
function fakeInstall(name: string): { dir: string; lib: string; cacheRoot: string } {
  const root = testOutputDir(`probe-memo-${name}`);
  const dir = join(root, 'pkg');
  mkdirSync(join(dir, 'lib', 'napi-v8'), { recursive: true });
  mkdirSync(join(dir, 'deps', 'lib'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"name":"@tensorflow/tfjs-node","version":"4.22.0"}');
  writeFileSync(join(dir, 'lib', 'napi-v8', 'tfjs_binding.node'), 'binding');
  const lib = join(dir, 'deps', 'lib', 'libtensorflow.so.2');
  writeFileSync(lib, 'libtensorflow');
  return { dir, lib, cacheRoot: join(root, 'cache') };
}

const OK: ChildProbe = { ok: true, tensorflow: '2.21.0' };
const ENV = { LD_LIBRARY_PATH: '/opt/a' };

test('a second process with the same binding, library and environment takes the remembered ok answer and starts no probe child', async () => {
  const { dir, cacheRoot } = fakeInstall('hit');
  const first = counting(OK);
  assert.deepEqual(await rememberedProbe(PKG, dir, first.probe, { cacheRoot, env: ENV }), OK);
  assert.equal(first.calls(), 1);
  // A new prober stands for a new process: the per-process memo of native-library.ts cannot answer.
  const second = counting<ChildProbe>({ ok: false, error: 'would have probed' });
  assert.deepEqual(await rememberedProbe(PKG, dir, second.probe, { cacheRoot, env: ENV }), OK);
  assert.equal(second.calls(), 0, 'the ok answer came from the memo, no child started');
  assert.equal(readdirSync(join(cacheRoot, PROBE_MEMO_FOLDER)).length, 1);
});

test('a library or binding that changed (mtime, size), or another LD_LIBRARY_PATH, is probed again', async () => {
  const { dir, lib, cacheRoot } = fakeInstall('changed');
  const p = counting(OK);
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV });
  assert.equal(p.calls(), 1);
  utimesSync(lib, new Date(), new Date(Date.now() - 3_600_000));
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV });
  assert.equal(p.calls(), 2, 'mtime of libtensorflow changed');
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV });
  assert.equal(p.calls(), 2, 'the new state was remembered');
  appendFileSync(join(dir, 'lib', 'napi-v8', 'tfjs_binding.node'), 'x');
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV });
  assert.equal(p.calls(), 3, 'size of the binding changed');
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: { LD_LIBRARY_PATH: '/opt/b' } });
  assert.equal(p.calls(), 4, 'LD_LIBRARY_PATH decides which libtensorflow loads');
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: { ...ENV, TF_CPP_MIN_LOG_LEVEL: '0' } });
  assert.equal(p.calls(), 4, 'TF_CPP_MIN_LOG_LEVEL does not change what loads');
});

test('a failed probe is never remembered: the next process probes again and can see a fixed install', async () => {
  const { dir, cacheRoot } = fakeInstall('failed');
  const failing = counting<ChildProbe>({ ok: false, error: 'libtensorflow.so.2: cannot open shared object file' });
  const a = await rememberedProbe(PKG, dir, failing.probe, { cacheRoot, env: ENV });
  assert.equal(a.ok, false);
  await rememberedProbe(PKG, dir, failing.probe, { cacheRoot, env: ENV });
  assert.equal(failing.calls(), 2);
  assert.equal(existsSync(join(cacheRoot, PROBE_MEMO_FOLDER)) && readdirSync(join(cacheRoot, PROBE_MEMO_FOLDER)).length > 0, false, 'nothing stored');
  const fixed = counting(OK);
  assert.deepEqual(await rememberedProbe(PKG, dir, fixed.probe, { cacheRoot, env: ENV }), OK);
  assert.equal(fixed.calls(), 1);
});

test('a corrupt memo, or a cache that cannot hold one, means probing as before without an error', async () => {
  const { dir, cacheRoot } = fakeInstall('corrupt');
  const p = counting(OK);
  await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV });
  const folder = join(cacheRoot, PROBE_MEMO_FOLDER);
  const [file] = readdirSync(folder);
  assert.ok(file !== undefined);
  writeFileSync(join(folder, file), '{"key": trunc');
  assert.deepEqual(await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV }), OK);
  assert.equal(p.calls(), 2, 'corrupt memo: probed again');
  writeFileSync(join(folder, file), JSON.stringify({ key: 'another install', ok: true, tensorflow: '9.9.9' }));
  assert.deepEqual(await rememberedProbe(PKG, dir, p.probe, { cacheRoot, env: ENV }), OK);
  assert.equal(p.calls(), 3, "another key's memo under this name is not taken");
  // The cache root is a file: nothing can be written, the answer is still the probe's.
  const blocked = join(cacheRoot, 'a-file');
  writeFileSync(blocked, 'not a folder');
  assert.deepEqual(await rememberedProbe(PKG, dir, p.probe, { cacheRoot: blocked, env: ENV }), OK);
  assert.deepEqual(await rememberedProbe(PKG, dir, p.probe, { cacheRoot: blocked, env: ENV }), OK);
  assert.equal(p.calls(), 5);
});

test('without a tfjs_binding.node to key on, nothing is remembered', async () => {
  const { dir, cacheRoot } = fakeInstall('no-binding');
  const bare = join(dir, '..', 'bare');
  mkdirSync(bare);
  writeFileSync(join(bare, 'package.json'), '{}');
  const p = counting(OK);
  await rememberedProbe(PKG, bare, p.probe, { cacheRoot, env: ENV });
  await rememberedProbe(PKG, bare, p.probe, { cacheRoot, env: ENV });
  assert.equal(p.calls(), 2);
});
