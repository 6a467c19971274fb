import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';

test('tfjs engines probe: cpu and wasm available with versions, tfjs-node with libtensorflow\'s version or how to enable it, -gpu how to enable it', async () => {
  for (const backend of ['cpu', 'wasm'] as const) {
    const engine = createTfjsEngine(backend);
    assert.equal(engine.id, `tfjs-${backend}`);
    const a = await engine.probe();
    assert.ok(a.available, `tfjs-${backend} unavailable: ${a.available ? '' : a.reason}`);
    assert.equal(a.versions['@tensorflow/tfjs-core'], '4.22.0');
    assert.equal(a.versions[`@tensorflow/tfjs-backend-${backend}`], '4.22.0');
  }
  // tfjs-node is no dependency (its install downloads libtensorflow); `npm run setup:tfjs-node` may have built it here.
  let installed = true;
  try {
    createRequire(import.meta.url).resolve('@tensorflow/tfjs-node/package.json');
  } catch {
    installed = false;
  }
  const node = await createTfjsEngine('node').probe();
  if (!installed) {
    assert.equal(node.available, false);
    if (!node.available) {
      assert.match(node.reason, /@tensorflow\/tfjs-node is not installed/);
      assert.match(node.enable, /npm install @tensorflow\/tfjs-node .*needs internet/);
      assert.match(node.enable, /offline, `npm run setup:tfjs-node`/, 'the way that works without internet is named too');
    }
  } else if (node.available) {
    assert.equal(node.versions['@tensorflow/tfjs-node'], '4.22.0');
    assert.match(node.versions['libtensorflow'] ?? '', /^\d+\.\d+\.\d+/);
  } else {
    // Installed without a working binding (its download failed): the reason names the load failure and the offline fix.
    assert.match(node.reason, /@tensorflow\/tfjs-node failed to load/);
    assert.match(node.enable, /setup:tfjs-node/);
  }
  const gpu = createTfjsEngine('node-gpu');
  assert.equal(gpu.id, 'tfjs-node-gpu');
  const g = await gpu.probe();
  assert.equal(g.available, false);
  if (!g.available) {
    assert.match(g.reason, /@tensorflow\/tfjs-node-gpu is not installed/);
    assert.match(g.enable, /npm install @tensorflow\/tfjs-node-gpu/);
    // The library it lacks and where it comes from come first, on a GPU machine as on a CPU one (issue 30).
    assert.match(g.reason, /libtensorflow\.so\.2 built with CUDA/);
    assert.match(g.reason, /storage\.googleapis\.com/);
    assert.match(g.enable, /CUDA/);
    assert.match(g.enable, /tfjs-webgpu is the GPU path that works from npm alone/);
  }
});
