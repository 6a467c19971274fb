import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultGenerator } from '../../src/models/default-generator.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { BUILTIN_ENGINE_FACTORIES } from '../../engines/registry.js';
import { runGenerationSweep } from '../../src/scenarios/generate/generation-sweep.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

test('a failing or skipped engine is recorded on its cells and the generation sweep goes on', async () => {
  const model = await defaultGenerator();
  const registry = new EngineRegistry({ 'onnx-cpu': BUILTIN_ENGINE_FACTORIES['onnx-cpu'] as never });
  registry.register(createMockEngine({ id: 'broken', openError: 'out of device memory' }));
  registry.register(createMockEngine({ id: 'absent', skipReason: 'needs a GPU' }));
  const cells = await runGenerationSweep(model, {
    engines: ['broken', 'absent', 'onnx-cpu'],
    batchSizes: [1],
    promptLengths: [4],
    newTokens: [3],
    runs: 1,
    warmupRuns: 0,
    texts: ['hello there'],
    registry,
  });
  assert.deepEqual(cells.map((c) => [c.engine, c.state]), [['broken', 'errored'], ['absent', 'skipped'], ['onnx-cpu', 'completed']]);
  assert.equal(cells[0]?.state === 'errored' && cells[0].reason, 'out of device memory');
  assert.equal(cells[1]?.state === 'skipped' && cells[1].reason, 'needs a GPU');
});
