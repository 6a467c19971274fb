/**
 * Point 8 of issue 22: memory is labelled by its window and its process.
 * Each batch size's RSS before its timed loop says which batch sizes ran
 * before it on the same open; rows say in-process or isolated; captions
 * say "timed loop"; a browser cell's renderer is marked in the pivot table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('an in-process sweep records its process and what ran before each batch size; the tables say so, and mark a browser renderer', async () => {
  const { registry } = loggedEngines([{ id: 'mock' }]);
  const bench = new Benchmark({ dataset: memoryDataset(16), batchSizes: [1, 4], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 5000 } });
  const cells = (await bench.run(new CharModel(), ['mock'])) as CompletedCell[];
  const [one, four] = cells;
  assert.ok(one?.memory && four?.memory);
  assert.equal(one.memory.isolation, 'in-process', "the Benchmark API's default runs the engine in this process");
  assert.deepEqual(one.memory.ranBefore, []);
  assert.deepEqual(four.memory.ranBefore, [1], 'batch 1 ran before batch 4 on the same open');

  // The same engine seen through a browser page: its figures are the renderer's.
  const browser: CompletedCell = { ...one, engine: 'browser-mock', memory: { ...one.memory, process: { label: 'Chromium renderer', detail: 'pid 1' } } };
  const text = renderTerminalReport({ ...buildSampleRun(), cells: [...cells, browser] } as RunRecord, { details: true, width: 220 });
  assert.match(text, /INFERENCE – MEMORY \(peak RSS of the timed loop\)/u);
  assert.match(text, /MEMORY – GROWTH \(timed loop\)/u);
  const pivot = text.slice(text.indexOf('INFERENCE – MEMORY'), text.indexOf('MEMORY – GROWTH'));
  assert.match(pivot, /mock +1 +in-process /u);
  assert.match(pivot, /browser-mock +1 +browser renderer /u);
  const growth = text.slice(text.indexOf('MEMORY – GROWTH'));
  assert.match(growth, /process +ran before +before loop/u);
  assert.match(growth, /mock +1 +1 +in-process +– /u, 'batch 1 was the first on its open');
  assert.match(growth, /mock +1 +4 +in-process +batch 1 /u);
  assert.match(growth, /including what the batch sizes under "ran before" allocated earlier on the same open in the same process/u);
});
