import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { inspectModel } from '../../src/models/inspect-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('inspectModel with engines judges only those, in table order, and never probes the others', async () => {
  const dir = testOutputDir('inspect-model-engines');
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 4]);
  g.addNode({ opType: 'Relu', inputs: [x], outputs: ['y'], name: 'relu' });
  g.addOutput('y', 'float32', ['batch', 4]);
  const file = join(dir, 'model.onnx');
  writeFileSync(file, g.encode());

  const probed: string[] = [];
  const registry = new EngineRegistry({});
  for (const id of ['mock-a', 'mock-b', 'mock-c']) {
    const engine = createMockEngine({ id });
    const probe = engine.probe.bind(engine);
    registry.register({ ...engine, probe: () => (probed.push(id), probe()) });
  }
  const some = await inspectModel(file, { registry, engines: ['mock-c', 'mock-a'] });
  assert.deepEqual(some.engines.map((e) => [e.engine, e.canRun]), [['mock-a', true], ['mock-c', true]]);
  assert.deepEqual(probed, ['mock-a', 'mock-c'], 'mock-b was never probed');

  const every = await inspectModel(file, { registry });
  assert.deepEqual(every.engines.map((e) => e.engine), ['mock-a', 'mock-b', 'mock-c'], 'without engines: every registered engine');
  assert.deepEqual(probed, ['mock-a', 'mock-c', 'mock-b'], 'each probed once');
  const registryAlone = await inspectModel(file, registry);
  assert.deepEqual(registryAlone.engines.map((e) => e.engine), ['mock-a', 'mock-b', 'mock-c'], 'a registry alone, as the exported function took before');
});
