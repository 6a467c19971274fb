import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('inferbench run with an unknown engine lists the valid names and exits non-zero', async () => {
  const r = await runCli(['run', '--engines', 'onnx-cpu,onnx-gpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /unknown engine "onnx-gpu" in --engines/);
  assert.match(r.stderr, /onnx-cpu, onnx-cuda, onnx-tensorrt, onnx-wasm, onnx-webgpu, tfjs-node, tfjs-node-gpu, tfjs-wasm, tfjs-cpu/);
});
