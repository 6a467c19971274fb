/** The transformers.js engines; the library is imported on first use. */
import { registerEngine } from '../../src/core/engine-registry.js';

registerEngine('transformers-js', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('cpu'));
registerEngine('transformers-js-cuda', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('cuda'));
registerEngine('transformers-js-webgpu', async () => (await import('./transformers-js-engine.js')).createTransformersJsEngine('webgpu'));
