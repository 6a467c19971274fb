import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nvidiaGpus } from '../../../src/core/gpu.js';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('asking only for unavailable engines lists each one with its reason', { skip: nvidiaGpus().length > 0 ? 'this machine has a GPU' : false }, async () => {
  const r = await runCli(['run', '--engines', 'onnx-cuda,onnx-tensorrt,tfjs-node-gpu', '--limit', '4']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /onnx-cuda: unavailable: libonnxruntime_providers_cuda\.so is not next to onnxruntime-node's binding .*NuGet.*; and no NVIDIA GPU was found/);
  assert.match(r.stderr, /onnx-tensorrt: unavailable: libonnxruntime_providers_tensorrt\.so is not next to onnxruntime-node's binding .*NuGet.*; and no NVIDIA GPU was found/);
  // The missing library is named first (it is what npm did not bring), then the missing GPU.
  // tfjs-node-gpu, not tfjs-node: `npm run setup:tfjs-node` may have made tfjs-node available here.
  assert.match(r.stderr, /tfjs-node-gpu: unavailable: .*not installed.*it needs libtensorflow\.so\.2 built with CUDA.*storage\.googleapis\.com.*npm install @tensorflow\/tfjs-node-gpu/);
});
