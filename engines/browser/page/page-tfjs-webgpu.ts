/** Benchmark page: tfjs on @tensorflow/tfjs-backend-webgpu. The adapter is read back for every row. */
import '@tensorflow/tfjs-backend-webgpu';
import * as tf from '@tensorflow/tfjs-core';
import { installTfjsPage } from './page-tfjs.js';

installTfjsPage({
  name: 'webgpu',
  packageName: '@tensorflow/tfjs-backend-webgpu',
  version: null,
  before(_request, caps) {
    if (caps.webgpuAdapter === null) throw new Error(`WebGPU: ${caps.webgpuUnavailable ?? 'no adapter'}`);
    // tfjs-webgpu otherwise runs small ops on the CPU backend without a word; every op stays on WebGPU here.
    tf.env().set('WEBGPU_CPU_FORWARD', false);
  },
  async after(caps) {
    return {
      threads: null,
      precision: 'fp32',
      notes: [`WebGPU adapter: ${caps.webgpuAdapter}`, 'every op on WebGPU (WEBGPU_CPU_FORWARD off: no small op handed to the CPU)', 'GPU backend: no thread count (the GPU, or SwiftShader on the CPU, runs the shaders)'],
    };
  },
});
