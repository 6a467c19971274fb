/** Benchmark page: tfjs on @tensorflow/tfjs-backend-wasm (XNNPACK; threaded when the page is cross-origin isolated). */
import { getThreadsCount, setThreadsCount, setWasmPaths, version_wasm } from '@tensorflow/tfjs-backend-wasm';
import * as tf from '@tensorflow/tfjs-core';
import { installTfjsPage } from './page-tfjs.js';

installTfjsPage({
  name: 'wasm',
  packageName: '@tensorflow/tfjs-backend-wasm',
  version: version_wasm,
  before(request) {
    const dir = request.assets['tfjsWasm'];
    if (dir) setWasmPaths(dir);
    if (request.threads !== null) setThreadsCount(request.threads);
  },
  async after(caps) {
    // The threaded binary loads only with SharedArrayBuffer; getThreadsCount() is the pool it made (1 when single-threaded).
    const threads = getThreadsCount();
    const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
    const multi = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
    return {
      threads,
      precision: 'fp32',
      notes: [`crossOriginIsolated ${caps.crossOriginIsolated}; tfjs wasm threads ${threads} (multithread support ${String(multi)})`, `wasm SIMD ${simd ? 'on' : 'off'}`],
    };
  },
});
