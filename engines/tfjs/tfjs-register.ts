/**
 * The TensorFlow.js engines: per backend, inferbench's ONNX translator
 * (`tfjs-<backend>`), tfjs-converter's GraphModel executor
 * (`tfjs-<backend>-graph-model`) and, on tfjs-node, a TensorFlow session on
 * a SavedModel (`tfjs-node[-gpu]-saved-model`). Backend packages are
 * imported on first use.
 */
import { registerEngine } from '../../src/core/engine-registry.js';
import { registerEngineOptions } from '../../src/core/engine-options.js';
import { TFJS_OPTION_TABLES, TFJS_TUNE_GRIDS } from './tfjs-options.js';

registerEngine('tfjs-node', async () => (await import('./tfjs-engine.js')).createTfjsEngine('node'));
registerEngine('tfjs-node-gpu', async () => (await import('./tfjs-engine.js')).createTfjsEngine('node-gpu'));
registerEngine('tfjs-wasm', async () => (await import('./tfjs-engine.js')).createTfjsEngine('wasm'));
registerEngine('tfjs-cpu', async () => (await import('./tfjs-engine.js')).createTfjsEngine('cpu'));
registerEngine('tfjs-node-saved-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('node', 'saved-model'));
registerEngine('tfjs-node-gpu-saved-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('node-gpu', 'saved-model'));
registerEngine('tfjs-node-graph-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('node', 'graph-model'));
registerEngine('tfjs-node-gpu-graph-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('node-gpu', 'graph-model'));
registerEngine('tfjs-wasm-graph-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('wasm', 'graph-model'));
registerEngine('tfjs-cpu-graph-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('cpu', 'graph-model'));
registerEngine('tfjs-webgpu', async () => (await import('./tfjs-engine.js')).createTfjsEngine('webgpu'));
registerEngine('tfjs-webgpu-graph-model', async () => (await import('./native-engine.js')).createNativeTfjsEngine('webgpu', 'graph-model'));

for (const [id, table] of Object.entries(TFJS_OPTION_TABLES)) registerEngineOptions(id, table, TFJS_TUNE_GRIDS[id]);
