/**
 * Point 5 of issue 22: open, first batch and first pass belong to an open:
 * the batch size measured first after it. Later batch sizes on the same
 * open find the engine warm, and say so. `open` is the session create
 * alone; the package import and the placement probe are their own figures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import type { Engine } from '../../src/core/engine.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { CharModel } from '../helpers/char-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { buildSampleRun } from '../helpers/sample-run.js';

/** A mock engine whose sessions report their open in parts, as the real engines do. */
function phasedEngine(): Engine {
  const base = createMockEngine({ id: 'phased' });
  return {
    ...base,
    async open(path, options) {
      const session = await base.open(path, options);
      return { ...session, openPhases: () => ({ importMs: 5, placementProbeMs: 30, createMs: 12 }) };
    },
  };
}

test('cold start is per open: the first batch size after it owns open (the create alone), import, probe and the cold first batch; later ones are "engine warm"', async () => {
  const registry = new EngineRegistry({});
  registry.register(phasedEngine());
  const bench = new Benchmark({ dataset: memoryDataset(16), batchSizes: [1, 4], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 5000 } });
  const cells = (await bench.run(new CharModel(), ['phased'])) as CompletedCell[];
  const [first, second] = cells;
  assert.ok(first?.state === 'completed' && second?.state === 'completed');
  assert.equal(first.coldStart?.afterOpen, true);
  assert.deepEqual(first.coldStart?.measuredBefore, []);
  assert.equal(second.coldStart?.afterOpen, false, 'batch 4 ran on the engine batch 1 had warmed');
  assert.deepEqual(second.coldStart?.measuredBefore, [1]);
  assert.equal(first.coldStart?.phases?.createMs, 12);
  assert.equal(first.coldStart?.phases?.placementProbeMs, 30);
  assert.ok((first.coldStart?.phases?.importMs ?? 0) >= 5, 'the import includes the engine probe before the open');

  const text = renderTerminalReport({ ...buildSampleRun(), cells } as RunRecord, { details: true, width: 220 });
  const table = text.slice(text.indexOf('COLD START'));
  assert.match(table, /first batch \(cold\) +first batch at this size \(engine warm\)/u);
  const rowOf = (batch: number) => table.split('\n').find((l) => new RegExp(`^phased +1 +${batch} `, 'u').test(l)) ?? '';
  assert.match(rowOf(1), /30\.0 ms +12\.0 ms/u, 'probe, then open: the create alone');
  assert.doesNotMatch(rowOf(4), /12\.0 ms/u, 'the open is shown once, on the batch size that followed it');
});
