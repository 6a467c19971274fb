import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTfjsEngine } from '../engines/tfjs/tfjs-engine.js';

test('tfjs engines probe: cpu and wasm available with versions, tfjs-node and -gpu explain how to enable them', async () => {
  for (const backend of ['cpu', 'wasm'] as const) {
    const engine = createTfjsEngine(backend);
    assert.equal(engine.id, `tfjs-${backend}`);
    const a = await engine.probe();
    assert.ok(a.available, `tfjs-${backend} unavailable: ${a.available ? '' : a.reason}`);
    assert.equal(a.versions['@tensorflow/tfjs-core'], '4.22.0');
    assert.equal(a.versions[`@tensorflow/tfjs-backend-${backend}`], '4.22.0');
  }
  // tfjs-node needs libtensorflow, downloaded at install time; this repository does not install it.
  const node = await createTfjsEngine('node').probe();
  assert.equal(node.available, false);
  if (!node.available) {
    assert.match(node.reason, /@tensorflow\/tfjs-node is not installed/);
    assert.match(node.enable, /npm install @tensorflow\/tfjs-node .*needs internet/);
  }
  const gpu = createTfjsEngine('node-gpu');
  assert.equal(gpu.id, 'tfjs-node-gpu');
  const g = await gpu.probe();
  assert.equal(g.available, false);
  if (!g.available) {
    assert.match(g.reason, /@tensorflow\/tfjs-node-gpu is not installed/);
    assert.match(g.enable, /npm install @tensorflow\/tfjs-node-gpu/);
    assert.match(g.enable, /NVIDIA GPU/);
  }
});
