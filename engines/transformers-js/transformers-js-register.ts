/** The transformers.js engines; the library is imported on first use. */
import { registerEngine } from '../../src/core/engine-registry.js';
import { registerEngineOptions } from '../../src/core/engine-options.js';
import { ORT_NODE_GRID, ORT_NODE_OPTIONS, ORT_WEBGPU_OPTIONS } from '../onnx/onnx-options.js';

registerEngine('transformers-js', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('cpu'));
registerEngine('transformers-js-cuda', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('cuda'));
registerEngine('transformers-js-webgpu', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('webgpu'));

// session_options passes ORT's keys through to onnxruntime-node (transformers.js runs on it in Node).
registerEngineOptions('transformers-js', ORT_NODE_OPTIONS, ORT_NODE_GRID);
registerEngineOptions('transformers-js-cuda', ORT_NODE_OPTIONS, ORT_NODE_GRID);
registerEngineOptions('transformers-js-webgpu', ORT_WEBGPU_OPTIONS);
