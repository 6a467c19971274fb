/**
 * The onnxruntime engines. Each factory imports its runtime on first use
 * only, so `--help` and `inferbench engines` on a machine without a native
 * runtime never load one.
 */
import { registerEngine } from '../../src/core/engine-registry.js';
import { registerEngineOptions } from '../../src/core/engine-options.js';
import { ORT_NODE_GRID, ORT_NODE_OPTIONS, ORT_WASM_GRID, ORT_WASM_OPTIONS, ORT_WEBGPU_OPTIONS } from './onnx-options.js';

registerEngine('onnx-cpu', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('cpu'));
registerEngine('onnx-cuda', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('cuda'));
registerEngine('onnx-tensorrt', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('tensorrt'));
registerEngine('onnx-wasm', async () => (await import('./onnx-wasm-engine.js')).createOnnxWasmEngine());
registerEngine('onnx-webgpu', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('webgpu'));

for (const id of ['onnx-cpu', 'onnx-cuda', 'onnx-tensorrt']) registerEngineOptions(id, ORT_NODE_OPTIONS, ORT_NODE_GRID);
registerEngineOptions('onnx-wasm', ORT_WASM_OPTIONS, ORT_WASM_GRID);
registerEngineOptions('onnx-webgpu', ORT_WEBGPU_OPTIONS, [...ORT_NODE_GRID.slice(0, 3), { preferredLayout: 'NHWC' }]);
