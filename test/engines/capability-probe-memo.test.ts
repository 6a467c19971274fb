import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CAPABILITY_MEMO_FOLDER, pageCapabilities, type ProbedChromium } from '../../engines/browser/capability-probe.js';
import type { PageCapabilities } from '../../engines/browser/page/protocol.js';
import { counting } from '../helpers/counting-probe.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** What headless Chromium answers on this VM: SwiftShader for both. */
const FULL: PageCapabilities = {
  crossOriginIsolated: true,
  hardwareConcurrency: 2,
  simd: true,
  webglRenderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)), SwiftShader driver)',
  webgpuAdapter: 'google swiftshader (fallback adapter)',
  userAgent: 'Mozilla/5.0 HeadlessChrome/142.0.0.0',
};
const ENV = { VK_ICD_FILENAMES: '/usr/lib/chromium/vk_swiftshader_icd.json' };

/** A fake Chromium binary and an empty cache beside it. */
function fakeChromium(name: string): { chromium: ProbedChromium; cacheRoot: string } {
  const root = testOutputDir(`capability-memo-${name}`);
  const path = join(root, 'chromium');
  writeFileSync(path, '#!/bin/sh\n', { mode: 0o755 });
  return { chromium: { path, version: '142.0.7444.175' }, cacheRoot: join(root, 'cache') };
}

test('a second process with the same Chromium, environment and boot takes the remembered answer and launches no Chromium', async () => {
  const { chromium, cacheRoot } = fakeChromium('hit');
  const first = counting(FULL);
  assert.deepEqual(await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: first.probe }), FULL);
  assert.equal(first.calls(), 1);
  // A new prober stands for a new process: only the disk can answer.
  const second = counting({ ...FULL, webgpuAdapter: 'would have launched' });
  assert.deepEqual(await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: second.probe }), FULL);
  assert.equal(second.calls(), 0, 'the answer came from the memo, no Chromium launched');
  assert.equal(readdirSync(join(cacheRoot, CAPABILITY_MEMO_FOLDER)).length, 1);
});

test('another Chromium (version, binary changed) or another GPU variable is probed again; an unrelated variable is not', async () => {
  const { chromium, cacheRoot } = fakeChromium('changed');
  const p = counting(FULL);
  const ask = (c: ProbedChromium, env: NodeJS.ProcessEnv) => pageCapabilities(c, { cacheRoot, env, probe: p.probe });
  await ask(chromium, ENV);
  await ask({ ...chromium, version: '143.0.1' }, ENV);
  assert.equal(p.calls(), 2, 'a new version');
  appendFileSync(chromium.path, '# upgraded\n');
  await ask(chromium, ENV);
  assert.equal(p.calls(), 3, 'the binary changed size');
  await ask(chromium, ENV);
  assert.equal(p.calls(), 3, 'the new state was remembered');
  await ask(chromium, { VK_ICD_FILENAMES: '/usr/share/vulkan/icd.d/nvidia_icd.json' });
  assert.equal(p.calls(), 4, 'VK_ICD_FILENAMES decides which Vulkan driver Dawn gets');
  await ask(chromium, { ...ENV, DISPLAY: ':0' });
  assert.equal(p.calls(), 5, 'a display changes what the GPU process opens');
  await ask(chromium, { ...ENV, INFERBENCH_CACHE: '/elsewhere', COLUMNS: '80' });
  assert.equal(p.calls(), 5, 'variables that do not reach the GPU do not count');
});

test('an answer without a WebGL renderer or a WebGPU adapter is never remembered, so a fixed machine shows at once', async () => {
  const { chromium, cacheRoot } = fakeChromium('partial');
  const noGpu = counting({ ...FULL, webgpuAdapter: null, webgpuUnavailable: 'navigator.gpu.requestAdapter() returned null' });
  await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: noGpu.probe });
  await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: noGpu.probe });
  assert.equal(noGpu.calls(), 2);
  const noGl = counting({ ...FULL, webglRenderer: null, webglUnavailable: 'no WebGL2 context' });
  await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: noGl.probe });
  await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: noGl.probe });
  assert.equal(noGl.calls(), 2);
  const fixed = counting(FULL);
  assert.deepEqual(await pageCapabilities(chromium, { cacheRoot, env: ENV, probe: fixed.probe }), FULL);
  assert.equal(fixed.calls(), 1);
});

test('a corrupt memo, one holding another key, or a cache that cannot hold one, means launching as before without an error', async () => {
  const { chromium, cacheRoot } = fakeChromium('corrupt');
  const p = counting(FULL);
  const ask = (root: string) => pageCapabilities(chromium, { cacheRoot: root, env: ENV, probe: p.probe });
  await ask(cacheRoot);
  const folder = join(cacheRoot, CAPABILITY_MEMO_FOLDER);
  const [file] = readdirSync(folder);
  assert.ok(file !== undefined);
  writeFileSync(join(folder, file), '{"key": trunc');
  assert.deepEqual(await ask(cacheRoot), FULL);
  assert.equal(p.calls(), 2, 'corrupt memo: launched again');
  writeFileSync(join(folder, file), JSON.stringify({ key: 'another machine', answer: { ...FULL, webgpuAdapter: 'not this one' } }));
  assert.deepEqual(await ask(cacheRoot), FULL);
  assert.equal(p.calls(), 3, "another key's memo under this name is not taken");
  const blocked = join(cacheRoot, 'a-file');
  writeFileSync(blocked, 'not a folder');
  assert.deepEqual(await ask(blocked), FULL);
  assert.deepEqual(await ask(blocked), FULL);
  assert.equal(p.calls(), 5);
});
