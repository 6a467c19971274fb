import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { buildPack } from '../../../tools/pack-offline.js';

const LIMIT_MIB = 60;

// The size is deterministic for one set of installed packages and one xz, so this asserts a figure, not a time.
test(`the pack for onnx-cpu and the three Node WebGPU stacks is at most ${LIMIT_MIB} MiB`, async (t) => {
  if (process.platform !== 'linux' || process.arch !== 'x64') return t.skip('the pack carries linux-x64 binaries');
  if (spawnSync('xz', ['--version']).status !== 0) return t.skip('xz is not installed (apt install xz-utils)');
  const base = mkdtempSync(join(tmpdir(), 'inferbench-pack-size-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const engines = ['onnx-cpu', 'onnx-webgpu', 'transformers-js-webgpu', 'tfjs-webgpu'];
  const built = await buildPack({ engines, out: join(base, 'gpu.tar.xz'), withHistory: false }, packageRoot());
  assert.equal(built.compression, 'xz -9', 'the default preset: the figure is the smallest pack');
  for (const p of ['onnxruntime-node', 'webgpu', '@huggingface/transformers', '@tensorflow/tfjs-backend-webgpu']) assert.ok(built.packages.includes(p), p);
  const mib = built.bytes / (1024 * 1024);
  t.diagnostic(`pack size ${mib.toFixed(1)} MiB for ${engines.join(',')}`);
  assert.ok(mib <= LIMIT_MIB, `${mib.toFixed(1)} MiB`);
});
