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

test('inferbench engines lists every engine with availability or reason and fix', async () => {
  const r = await runCli(['engines']);
  assert.equal(r.code, 0, r.stderr);
  for (const id of ['onnx-cpu', 'onnx-cuda', 'onnx-tensorrt', 'onnx-wasm', 'tfjs-node', 'tfjs-node-gpu', 'tfjs-wasm', 'tfjs-cpu']) {
    assert.match(r.stdout, new RegExp(`^${id}\\s+(available|unavailable: .+\\(.+\\))`, 'm'));
  }
  assert.match(r.stdout, /^onnx-cpu\s+available/m);
  // The GPU path that needs nothing beyond npm is named, whatever this machine's Vulkan driver.
  assert.match(r.stdout, /^GPU from npm alone: onnx-webgpu, tfjs-webgpu, tfjs-webgpu-graph-model, transformers-js-webgpu \(WebGPU in Node/m);
  for (const id of ['onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu', 'tfjs-webgpu-graph-model']) assert.match(r.stdout, new RegExp(`^${id}\\s+(available|unavailable: .+\\(.+\\))`, 'm'));
});

test('a second inferbench engines takes the browser GPU engines\' WebGL renderer and WebGPU adapter from the memo: Chromium is launched once', { skip: NO_CHROMIUM }, async () => {
  const dir = testOutputDir('engines-capability-memo');
  const launches = join(dir, 'launches.log');
  // Debian's Chromium behind a script that logs each launch (not the --version checks) and then is Chromium.
  const chromium = join(dir, 'chromium');
  writeFileSync(chromium, `#!/bin/sh\ncase " $* " in *" --version "*) ;; *) echo launch >> '${launches}' ;; esac\nexec /usr/bin/chromium "$@"\n`, { mode: 0o755 });
  const env = { INFERBENCH_CHROMIUM: chromium, INFERBENCH_CACHE: join(dir, 'cache') };
  const gpuLines = (out: string) => out.split('\n').filter((l) => /^browser-(tfjs-webgl|onnx-webgpu|transformers-js-webgpu)\s/.test(l));
  const first = await runCli(['engines'], { env });
  assert.equal(first.code, 0, first.stderr);
  const count = () => (existsSync(launches) ? readFileSync(launches, 'utf8').split('\n').filter(Boolean).length : 0);
  assert.equal(count(), 1, 'the first listing probes the page in one Chromium');
  const second = await runCli(['engines'], { env });
  assert.equal(second.code, 0, second.stderr);
  assert.equal(count(), 1, 'the second listing launched no Chromium');
  assert.equal(gpuLines(first.stdout).length, 3, first.stdout);
  assert.deepEqual(gpuLines(second.stdout), gpuLines(first.stdout), 'the same availability, renderer and adapter');
});
