import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { CharModel } from '../helpers/char-model.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('a failing cell is recorded with its reason and the sweep goes on', async () => {
  const oom = createMockEngine({ id: 'oom', failAtBatchSize: { size: 8, message: 'out of memory allocating 64 MiB' } });
  const skipper = createMockEngine({ id: 'skipper', skipReason: 'unsupported ONNX op Foo (node n1)' });
  const broken = createMockEngine({ id: 'broken', openError: 'model file is corrupt' });
  const healthy = createMockEngine({ id: 'healthy' });
  const registry = new EngineRegistry({});
  for (const e of [oom, skipper, broken, healthy]) registry.register(e);
  const bench = new Benchmark({ dataset: memoryDataset(24), batchSizes: [1, 8], registry, stop: { minTimeMs: 0, minBatches: 1 } });
  const cells = await bench.run(new CharModel(), ['oom', 'skipper', 'broken', 'healthy']);
  const state = (engine: string, b: number) => cells.find((c) => c.engine === engine && c.batchSize === b);
  assert.equal(cells.length, 8);
  assert.equal(state('oom', 1)?.state, 'completed');
  const failed = state('oom', 8);
  assert.equal(failed?.state, 'errored');
  assert.match(failed?.state === 'errored' ? failed.reason : '', /out of memory/);
  assert.deepEqual([state('skipper', 1)?.state, state('skipper', 8)?.state], ['skipped', 'skipped']);
  assert.match(JSON.stringify(state('skipper', 1)), /unsupported ONNX op Foo \(node n1\)/);
  assert.equal(state('broken', 1)?.state, 'errored');
  assert.equal(state('healthy', 8)?.state, 'completed');
  // Every round is a fresh open (3 rounds by default), and every open is disposed, even after a failure.
  assert.equal(oom.log.opens, 3);
  assert.equal(oom.log.disposed, 3, 'the session is disposed even after a failure');
});
