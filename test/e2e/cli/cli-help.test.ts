import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

// A resolve hook that fails any import of an engine runtime, so help must answer without one.
const hook = `export async function resolve(s, c, next) { if (/onnxruntime|@tensorflow|@huggingface|vega|resvg/.test(s)) throw new Error('engine import during help: ' + s); return next(s, c); }`;
const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const NO_ENGINES = `--import=data:text/javascript,${encodeURIComponent(register)}`;

test('--help answers for the tool and every command without loading an engine', async () => {
  for (const args of [['--help'], ['run', '--help'], ['compare', '--help'], ['generate', '--help'], ['engines', '--help']]) {
    const r = await runCli(args, { env: { NODE_OPTIONS: NO_ENGINES } });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Usage: inferbench/);
  }
});

test('an unknown command or option is a clean user error', async () => {
  const a = await runCli(['frobnicate']);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /unknown command "frobnicate"/);
  const b = await runCli(['run', '--batch-size', '8']);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /unknown option --batch-size/);
  assert.match(b.stderr, /--batch-sizes/);
});

/**
 * Debian's Chromium behind a script of its own that logs each launch (not
 * the --version checks): `count()` is the launches so far. A new script is a
 * new binary to the capability memo, so its first probe is never remembered.
 */
function countedChromium(name: string): { env: Record<string, string>; count: () => number } {
  const dir = testOutputDir(name);
  const launches = join(dir, 'launches.log');
  const chromium = join(dir, 'chromium');
  writeFileSync(chromium, `#!/bin/sh\ncase " $* " in *" --version "*) ;; *) echo launch >> '${launches}' ;; esac\nexec /usr/bin/chromium "$@"\n`, { mode: 0o755 });
  return {
    env: { INFERBENCH_CHROMIUM: chromium },
    count: () => (existsSync(launches) ? readFileSync(launches, 'utf8').split('\n').filter(Boolean).length : 0),
  };
}

test('inferbench engines lists every engine with availability or reason and fix; a second listing takes the browser GPU engines\' answer from the memo without launching Chromium', async (t) => {
  const chromium = countedChromium('engines-listing');
  const r = await runCli(['engines'], { env: chromium.env });
  assert.equal(r.code, 0, r.stderr);
  for (const id of ['onnx-cpu', 'onnx-cuda', 'onnx-tensorrt', 'onnx-wasm', 'tfjs-node', 'tfjs-node-gpu', 'tfjs-wasm', 'tfjs-cpu']) {
    assert.match(r.stdout, new RegExp(`^${id}\\s+(yes  \\S|no   \\[\\d+\\] \\S)`, 'm'));
  }
  assert.match(r.stdout, /^onnx-cpu\s+yes  onnxruntime-node /m);
  for (const id of ['onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu', 'tfjs-webgpu-graph-model']) assert.match(r.stdout, new RegExp(`^${id}\\s+(yes|no)  `, 'm'));
  // The GPU path that needs nothing beyond npm is named in a WebGPU engine's full text, whatever this machine's Vulkan driver.
  const explained = await runCli(['engines', '--explain', 'onnx-webgpu'], { env: { INFERBENCH_CHROMIUM: '/nonexistent/chromium' } }); // no Chromium: the memo count below stays the listing's
  assert.match(explained.stdout.replace(/\n +/gu, ' '), /^GPU from npm alone: WebGPU in Node runs on Dawn over Vulkan/m);
  if (NO_CHROMIUM) return t.skip(`the memo's check needs Chromium: ${NO_CHROMIUM}`);
  const gpuLines = (out: string) => out.split('\n').filter((l) => /^browser-(tfjs-webgl|onnx-webgpu|transformers-js-webgpu)\s/.test(l));
  assert.equal(gpuLines(r.stdout).length, 3, r.stdout);
  // Only a full answer (a WebGL renderer and a WebGPU adapter) is remembered: a Chromium without one is asked again each time.
  if (!gpuLines(r.stdout).every((l) => /\syes\s/.test(l))) return t.skip(`this Chromium lacks WebGL or WebGPU, so nothing is remembered: ${gpuLines(r.stdout).join(' | ')}`);
  assert.equal(chromium.count(), 1, 'the first listing asks a page in one Chromium');
  const again = await runCli(['engines'], { env: chromium.env });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(chromium.count(), 1, 'the second listing launched no Chromium');
  assert.deepEqual(gpuLines(again.stdout), gpuLines(r.stdout), 'the same availability, renderer and adapter');
});
