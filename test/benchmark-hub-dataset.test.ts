import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Benchmark } from '../src/benchmark.js';
import { EngineRegistry } from '../src/engine-registry.js';
import { UserError } from '../src/errors.js';
import type { TensorMap } from '../src/tensor.js';
import { fixture } from './fixtures/dataset-files.js';
import { CharModel } from './fixtures/char-model.js';
import { createMockEngine } from './fixtures/mock-engine.js';
import { startMockHub, type MockHub } from './fixtures/mock-hub.js';
import { testOutputDir } from './fixtures/test-cache.js';

const HF_VARS = ['HF_ENDPOINT', 'HF_HUB_CACHE', 'HF_TOKEN', 'HF_HUB_OFFLINE'];
let hub: MockHub;
const saved: Record<string, string | undefined> = {};

before(async () => {
  hub = await startMockHub([{ id: 'acme/reviews', splits: { default: { train: [fixture('pyarrow-snappy.parquet'), fixture('pyarrow-gzip.parquet')] } } }]);
  for (const name of HF_VARS) saved[name] = process.env[name];
  Object.assign(process.env, { HF_ENDPOINT: hub.url, HF_HUB_CACHE: join(testOutputDir('bench-hub'), 'hub'), HF_TOKEN: '', HF_HUB_OFFLINE: '' });
});
after(async () => {
  for (const name of HF_VARS) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await hub.close();
});

test('new Benchmark({ dataset: "<hub id>" }) streams the Hub dataset through both callbacks, the same rows to every engine', async () => {
  const registry = new EngineRegistry({});
  registry.register(createMockEngine({ id: 'engine-a' }));
  registry.register(createMockEngine({ id: 'engine-b' }));
  // Batches each cell prepared; the first is prepared once more for warmup, before the measured pass.
  const cellBatches: string[][][] = [];
  let callbackRequests = -1;
  const bench = new Benchmark({
    dataset: 'acme/reviews',
    batchSizes: [4, 8],
    limit: null,
    // One measured pass per cell (main's stop rule otherwise cycles the rows until its minimum time).
    stop: { minTimeMs: 0, minBatches: 1 },
    registry,
    datasetProcessCallback: (dataset) => {
      const before = hub.requests.length;
      const pipeline = dataset
        .select(['text', 'label'])
        .filter((row) => row['label'] === 1)
        .shuffle({ seed: 42, bufferSize: 16 })
        .take(20);
      callbackRequests = hub.requests.length - before;
      return pipeline;
    },
    onProgress: (event) => {
      if (event.kind === 'cell-start') cellBatches.push([]);
    },
    dataItemProcessCallback: (rows, columns): TensorMap => {
      assert.equal(columns.text, 'text');
      for (const row of rows) {
        assert.deepEqual(Object.keys(row), ['text', 'label']);
        assert.equal(row['label'], 1);
      }
      cellBatches.at(-1)?.push(rows.map((r) => String(r['text'])));
      const data = BigInt64Array.from(rows.map((r) => BigInt(String(r['text']).length)));
      return { input_ids: { dtype: 'int64', dims: [rows.length, 1], data } };
    },
  });
  const cells = await bench.run(new CharModel(), ['engine-a', 'engine-b']);
  assert.equal(callbackRequests, 0, 'the dataset callback builds a lazy pipeline and reads nothing');
  assert.deepEqual(cells.map((c) => [c.engine, c.batchSize, c.state === 'completed' ? c.state : c.reason]), [
    ['engine-a', 4, 'completed'],
    ['engine-a', 8, 'completed'],
    ['engine-b', 4, 'completed'],
    ['engine-b', 8, 'completed'],
  ]);
  const passes = cellBatches.map((batches) => batches.slice(1).flat());
  assert.equal(passes.length, 4);
  assert.ok(passes.every((p) => p.length === 20), 'each cell streams the 20 rows the callback kept');
  for (const pass of passes.slice(1)) assert.deepEqual(pass, passes[0], 'every engine and batch size sees the same rows in the same order');
  assert.equal(new Set(passes[0]).size, 20);
});

test('a dataset left empty by the callbacks is a clear error', async () => {
  const bench = new Benchmark({ dataset: 'acme/reviews', registry: new EngineRegistry({}), datasetProcessCallback: (d) => d.filter(() => false) });
  await assert.rejects(bench.run(new CharModel(), []), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /dataset acme\/reviews \(default\/train\) has no rows after the dataset callback/u);
    assert.match(err.fix ?? '', /datasetProcessCallback/u);
    return true;
  });
});
