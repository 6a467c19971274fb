/**
 * The browser engines: which page bundle each loads, on which backend,
 * and what the page must offer for it to run.
 */
import type { EngineTarget } from '../../src/core/engine.js';

export type PageEntry = 'page-ort' | 'page-tfjs-wasm' | 'page-tfjs-webgl' | 'page-tfjs-webgpu' | 'page-transformers';

export interface BrowserEngineSpec {
  readonly id: string;
  readonly description: string;
  readonly target: EngineTarget;
  readonly runtime: 'ort' | 'tfjs' | 'transformers';
  readonly backend: 'wasm' | 'webgl' | 'webgpu';
  readonly entry: PageEntry;
  /** Packages on the inference path, whose installed versions every row records. */
  readonly packages: readonly string[];
  /** What the page must have: a WebGL2 context or a WebGPU adapter. */
  readonly needs: 'webgl2' | 'webgpu' | null;
}

const ORT = 'onnxruntime-web';
const TF = ['@tensorflow/tfjs-core'];

export const BROWSER_ENGINE_SPECS: readonly BrowserEngineSpec[] = [
  {
    id: 'browser-onnx-wasm',
    description: 'ONNX Runtime Web in headless Chromium, WebAssembly (multi-threaded: the page is cross-origin isolated)',
    target: { family: 'onnx', device: 'wasm' },
    runtime: 'ort',
    backend: 'wasm',
    entry: 'page-ort',
    packages: [ORT],
    needs: null,
  },
  {
    id: 'browser-onnx-webgpu',
    description: 'ONNX Runtime Web in headless Chromium, WebGPU execution provider',
    target: { family: 'onnx', device: 'wasm' },
    runtime: 'ort',
    backend: 'webgpu',
    entry: 'page-ort',
    packages: [ORT],
    needs: 'webgpu',
  },
  {
    id: 'browser-tfjs-wasm',
    description: 'TensorFlow.js wasm backend in headless Chromium, threaded + SIMD (ONNX graph translated to tfjs ops)',
    target: { family: 'tfjs', backend: 'wasm' },
    runtime: 'tfjs',
    backend: 'wasm',
    entry: 'page-tfjs-wasm',
    packages: [...TF, '@tensorflow/tfjs-backend-wasm'],
    needs: null,
  },
  {
    id: 'browser-tfjs-webgl',
    description: 'TensorFlow.js WebGL backend in headless Chromium (ONNX graph translated to tfjs ops)',
    target: { family: 'tfjs', backend: 'wasm' },
    runtime: 'tfjs',
    backend: 'webgl',
    entry: 'page-tfjs-webgl',
    packages: [...TF, '@tensorflow/tfjs-backend-webgl'],
    needs: 'webgl2',
  },
  {
    id: 'browser-tfjs-webgpu',
    description: 'TensorFlow.js WebGPU backend in headless Chromium (ONNX graph translated to tfjs ops)',
    target: { family: 'tfjs', backend: 'wasm' },
    runtime: 'tfjs',
    backend: 'webgpu',
    entry: 'page-tfjs-webgpu',
    packages: [...TF, '@tensorflow/tfjs-backend-webgpu'],
    needs: 'webgpu',
  },
  ...(['wasm', 'webgl', 'webgpu'] as const).map(
    (backend): BrowserEngineSpec => ({
      id: `browser-tfjs-${backend}-graph-model`,
      description: `TensorFlow.js ${backend === 'wasm' ? 'wasm backend, threaded + SIMD' : backend === 'webgl' ? 'WebGL backend' : 'WebGPU backend'} in headless Chromium, running a tfjs GraphModel (model.json) with tfjs-converter's executor`,
      target: { family: 'tfjs', backend: 'wasm', executor: 'graph-model' },
      runtime: 'tfjs',
      backend,
      entry: `page-tfjs-${backend}`,
      packages: [...TF, `@tensorflow/tfjs-backend-${backend}`, '@tensorflow/tfjs-converter'],
      needs: backend === 'wasm' ? null : backend === 'webgl' ? 'webgl2' : 'webgpu',
    }),
  ),
  {
    id: 'browser-transformers-js',
    description: 'transformers.js text-classification pipeline in headless Chromium on onnxruntime-web wasm, tokenization and post-processing included',
    target: { family: 'onnx', device: 'wasm' },
    runtime: 'transformers',
    backend: 'wasm',
    entry: 'page-transformers',
    packages: ['@huggingface/transformers'],
    needs: null,
  },
  {
    id: 'browser-transformers-js-webgpu',
    description: 'transformers.js text-classification pipeline in headless Chromium on onnxruntime-web WebGPU (device "webgpu"), tokenization and post-processing included',
    target: { family: 'onnx', device: 'wasm' },
    runtime: 'transformers',
    backend: 'webgpu',
    entry: 'page-transformers',
    packages: ['@huggingface/transformers'],
    needs: 'webgpu',
  },
];
