import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { peakAcrossRounds } from '../../src/scenarios/load/load-sweep.js';
import { loadPeakRows } from '../../src/scenarios/load/load-views.js';

test("a peak searched in three rounds reports each round's interval, the mean with a 95% CI across rounds (Student t on the log scale), and the interval holding them all", () => {
  const peak = peakAcrossRounds([
    { round: 0, lastPass: 400, firstFail: 420, probes: 7 },
    { round: 1, lastPass: 380, firstFail: 400, probes: 6 },
    { round: 2, lastPass: 420, firstFail: 440, probes: 6 },
  ]);
  assert.ok(peak?.acrossRounds);
  assert.equal(peak.acrossRounds.mean, 400);
  assert.equal(peak.acrossRounds.min, 380);
  assert.equal(peak.acrossRounds.max, 420);
  // sd 20 over 3 rounds: t(0.975, 2) · 20 / √3 = 4.303 · 11.547 = 49.7, on the log scale: 400 × exp(±49.69 / 400).
  assert.ok(Math.abs((peak.acrossRounds.ci95?.high ?? 0) - 452.90) < 0.05, JSON.stringify(peak.acrossRounds.ci95));
  assert.ok(Math.abs((peak.acrossRounds.ci95?.low ?? 0) - 353.28) < 0.05, JSON.stringify(peak.acrossRounds.ci95));

  const run = {
    schemaVersion: 1, kind: 'load', id: 'r', state: 'completed', startedAt: '', finishedAt: null, config: {}, models: [],
    environment: { inferbenchVersion: '0', node: 'v20', os: 'linux', arch: 'x64', cpuModel: 'cpu', cores: 2, memoryBytes: 1, gpus: [], date: '2026-01-01T00:00:00Z', gitCommit: null },
    cells: [{
      model: 'm', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 3, probes: [], peak,
      serviceMs: { batchOne: 1, maxBatch: 1 }, session: { engine: 'onnx-cpu', backend: 'cpu', threads: 2, precision: 'fp32', versions: {} },
    }],
  } satisfies LoadRunRecord;
  const [row] = loadPeakRows(run);
  assert.equal(row?.peakRps, 400);
  assert.deepEqual(row?.interval, { lastPass: 380, firstFail: 440 });
  assert.equal(row?.rounds.length, 3);
  assert.equal(row?.probes, 19);

  const none = peakAcrossRounds([{ round: 0, lastPass: null, firstFail: 0.8, probes: 6 }]);
  assert.equal(none?.acrossRounds, null, 'no rate passed: no peak, the interval still says how low the search went');
});
