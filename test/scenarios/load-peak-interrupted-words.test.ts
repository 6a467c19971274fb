/**
 * An interrupted `load --find-peak` says so in the PEAK RATE table at every
 * width (the peak column is never dropped), in plain words: never
 * "first fail not measured".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderLoadReport } from '../../src/scenarios/load/load-report.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { runOf } from '../helpers/round-cells.js';

test('an interrupted peak search is marked interrupted in the PEAK RATE table at every width, in plain words', () => {
  const peak = {
    rounds: [{ round: 0, lastPass: 400, firstFail: null, probes: 5, interrupted: true }],
    acrossRounds: { mean: 400, min: 400, max: 400, ci95: null },
  };
  const cell = { model: 'm', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 1, probes: [], peak, serviceMs: { batchOne: 1, maxBatch: 1 }, session: { engine: 'onnx-cpu', backend: 'cpu' } };
  const base = runOf([]);
  const load = { ...base, models: [{ name: 'm', source: '/m', sizeBytes: 1, notes: [] }], kind: 'server', cells: [cell] } as unknown as LoadRunRecord;
  for (const width of [40, 60, 80, 120]) {
    const text = renderLoadReport(load, { width });
    const table = text.slice(text.indexOf('PEAK RATE'));
    assert.match(table, /400[^\n]*\(interrupted\)/, `the peak says interrupted at ${width} columns:\n${table}`);
    assert.doesNotMatch(text, /not measured/, `no "not measured" at ${width} columns`);
  }
  const wide = renderLoadReport(load, { wide: true });
  assert.match(wide, /400 passed; search interrupted before a rate failed/);
});
