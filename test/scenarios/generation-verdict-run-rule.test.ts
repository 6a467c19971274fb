import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedGenerationCell, GenerationCellKey, GenerationSample } from '../../src/scenarios/generate/generation-results.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';
import { DEFAULT_MAX_CV, verdictOfRounds } from '../../src/core/stop-rule.js';
import { assembleGenerationCell } from '../../src/scenarios/generate/generation-rounds.js';
import { summarizeGenerationCell } from '../../src/scenarios/generate/generation-summary.js';

const key: GenerationCellKey = { model: 'm', engine: 'onnx-cpu', batchSize: 1, promptLength: 4, newTokens: 3, requestedThreads: null };
const call = (round: number, ttft: number, tpot: number): GenerationSample => ({
  firstTokenMs: ttft,
  restTokenMs: [tpot, tpot],
  totalMs: ttft + 2 * tpot,
  round,
  generatedTokens: 3,
  rssBytesPerToken: [1, 1, 1],
  peakRssScope: 'process',
  gpuBytesPerToken: null,
});
const roundCell = (samples: GenerationSample[]): CompletedGenerationCell => ({
  state: 'completed',
  session: { engine: 'onnx-cpu' } as CompletedGenerationCell['session'],
  openMs: 5,
  warmupRuns: 0,
  ...summarizeGenerationCell(key, samples),
});

test('a generation cell is judged by run\'s rule on TTFT and TPOT round means: rounds that disagree make it NOISY, rounds that agree VALID', () => {
  // TTFT rounds of 10 ms and 20 ms disagree; TPOT rounds of 2 ms agree exactly.
  const noisy = assembleGenerationCell([roundCell([call(0, 10, 2), call(0, 10, 2)]), roundCell([call(1, 20, 2), call(1, 20, 2)])], { roundsPlanned: 2, interrupted: false });
  assert.deepEqual(noisy.betweenRounds?.ttft, betweenRoundsOf([10, 20]));
  const expected = verdictOfRounds({
    latency: computeStatistics([10, 10, 20, 20]),
    betweenRounds: betweenRoundsOf([10, 20]),
    rule: { minTimeMs: 0, minBatches: 0, maxTimeMs: Infinity, maxBatches: Infinity },
    maxCv: DEFAULT_MAX_CV,
    roundsPlanned: 2,
    stoppedAtMax: false,
    partialPass: null,
    warmPassCut: null,
    interrupted: false,
    warnings: [],
  });
  assert.equal(noisy.verdict?.status, 'NOISY');
  assert.deepEqual(noisy.verdict?.reasons, expected.reasons.map((r) => `TTFT ${r}`));
  assert.match(noisy.verdict?.reasons[0] ?? '', /^TTFT rounds disagree: 95% CI across 2 rounds/);

  const valid = assembleGenerationCell([roundCell([call(0, 10, 2), call(0, 10, 2)]), roundCell([call(1, 10, 2), call(1, 10, 2)])], { roundsPlanned: 2, interrupted: false });
  assert.deepEqual(valid.verdict, { status: 'VALID', reasons: [] });
  assert.equal(valid.samples.length, 4);

  // A busy host in round 2 rides along as run's warning; it does not decide the verdict.
  const quiet = { loadPerCore: 0.2, stealShare: 0, otherCpuShare: 0.05, cores: 2 };
  const busy = { loadPerCore: 3, stealShare: 0, otherCpuShare: 0.9, cores: 2 };
  const warned = assembleGenerationCell(
    [
      { ...roundCell([call(0, 10, 2)]), hostNoise: [{ round: 0, before: quiet, after: quiet }] },
      { ...roundCell([call(1, 10, 2)]), hostNoise: [{ round: 1, before: quiet, after: busy }] },
    ],
    { roundsPlanned: 2, interrupted: false },
  );
  assert.equal(warned.verdict?.status, 'VALID');
  assert.deepEqual(warned.verdict?.warnings, ["host busy in round 2: other processes used 90% of CPU time (1.8 of 2 cores), net of inferbench's own (above 25%)"]);

  // Ctrl-C after the first of two rounds: run's interrupted reason, once, and never VALID.
  const cut = assembleGenerationCell([roundCell([call(0, 10, 2)])], { roundsPlanned: 2, interrupted: false });
  assert.equal(cut.interrupted, true);
  assert.equal(cut.verdict?.reasons[0], 'interrupted (Ctrl-C) after 1 of 2 rounds');
});
