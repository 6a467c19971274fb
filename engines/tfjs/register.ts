/** The TensorFlow.js engines, one per backend; the backend package is imported on first use. */
import { registerEngine } from '../../src/core/engine-registry.js';

registerEngine('tfjs-node', async () => (await import('./tfjs-engine.js')).createTfjsEngine('node'));
registerEngine('tfjs-node-gpu', async () => (await import('./tfjs-engine.js')).createTfjsEngine('node-gpu'));
registerEngine('tfjs-wasm', async () => (await import('./tfjs-engine.js')).createTfjsEngine('wasm'));
registerEngine('tfjs-cpu', async () => (await import('./tfjs-engine.js')).createTfjsEngine('cpu'));
