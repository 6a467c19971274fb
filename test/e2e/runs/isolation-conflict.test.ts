import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../../src/runs/benchmark.js';
import { EngineRegistry } from '../../../src/core/engine-registry.js';
import { UserError } from '../../../src/core/errors.js';
import { CharModel } from '../../helpers/char-model.js';
import { createMockEngine } from '../../helpers/mock-engine.js';
import { memoryDataset } from '../../helpers/memory-dataset.js';

test('isolate with an in-process callback that cannot be serialised says how to fix it', async () => {
  const registry = new EngineRegistry({});
  registry.register(createMockEngine({ id: 'mock' }));
  const bench = new Benchmark({
    dataset: memoryDataset(4),
    batchSizes: [1],
    registry,
    isolate: true,
    dataItemProcessCallback: (rows, columns) => new CharModel().prepareBatch(rows, columns),
  });
  await assert.rejects(bench.run(new CharModel(), ['mock']), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /cannot send datasetProcessCallback or dataItemProcessCallback to a child process/);
    assert.match(err.fix ?? '', /isolate: false \(CLI: --no-isolate\)/);
    return true;
  });
});
