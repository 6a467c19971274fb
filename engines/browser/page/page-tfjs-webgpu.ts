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
  },
  async after(caps) {
    return {
      threads: null,
      precision: 'fp32',
      notes: [`WebGPU adapter: ${caps.webgpuAdapter}`, 'GPU backend: no thread count (the GPU, or SwiftShader on the CPU, runs the shaders)'],
    };
  },
});
