import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDataset } from '../../datasets/open-dataset.js';
import { Benchmark } from '../../src/runs/benchmark.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { UserError } from '../../src/core/errors.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { fixture } from '../helpers/dataset-files.js';
import { CharModel } from '../helpers/char-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { startMockHub, type MockHub } from '../helpers/mock-hub.js';
import { testOutputDir } from '../helpers/test-cache.js';

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
  // Batches each cell prepared: its untimed warm pass, then its timed passes.
  const cellBatches: string[][][] = [];
  let callbackRequests = -1;
  const bench = new Benchmark({
    dataset: 'acme/reviews',
    batchSizes: [4, 8],
    limit: null,
    // One round, so each cell-start below is one cell (rounds are covered by benchmark-rounds.test).
    rounds: 1,
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
  // The rows the callback keeps, in order, read straight from the same pipeline.
  const pipeline = (await openDataset('acme/reviews')).select(['text', 'label']).filter((r) => r['label'] === 1).shuffle({ seed: 42, bufferSize: 16 }).take(20);
  const expected: string[] = [];
  for await (const row of pipeline) expected.push(String(row['text']));
  assert.equal(new Set(expected).size, 20);
  assert.equal(cellBatches.length, 4);
  cellBatches.forEach((batches, cell) => {
    const size = cells[cell]?.batchSize ?? 0;
    // Warmup and the stop rule may stream the rows more than once; every batch must still be the next slice of the same order.
    for (const batch of batches) {
      const start = expected.indexOf(batch[0] ?? '');
      assert.ok(start >= 0 && start % size === 0, `cell ${cell}: a batch starts at a batch boundary of the same order`);
      assert.deepEqual(batch, expected.slice(start, start + size), `cell ${cell}: every engine and batch size sees the same rows in the same order`);
    }
    assert.deepEqual(new Set(batches.flat()), new Set(expected), `cell ${cell}: all 20 rows were streamed`);
  });
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
