/**
 * The onnxruntime engines. Each factory imports its runtime on first use
 * only, so `--help` and `inferbench engines` on a machine without a native
 * runtime never load one.
 */
import { registerEngine } from '../../src/core/engine-registry.js';

registerEngine('onnx-cpu', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('cpu'));
registerEngine('onnx-cuda', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('cuda'));
registerEngine('onnx-tensorrt', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('tensorrt'));
registerEngine('onnx-wasm', async () => (await import('./onnx-wasm-engine.js')).createOnnxWasmEngine());
registerEngine('onnx-webgpu', async () => (await import('./onnx-node-engine.js')).createOnnxNodeEngine('webgpu'));
