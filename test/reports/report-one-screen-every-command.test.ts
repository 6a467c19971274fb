/**
 * Issue 47, item 1 for load, generate and train: a default-sized run of
 * each (7 engines; generate over 2 batch sizes × 2 prompt lengths, train
 * with 3 engines that cannot train, load with a peak per engine) renders
 * one screen at 100 columns, leaving the CLI's files and history lines room
 * within 45, opening with the answer; `details` prints every table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGenerationReport } from '../../src/scenarios/generate/generation-report.js';
import { renderTrainingReport } from '../../src/scenarios/train/training-report.js';
import { renderLoadReport } from '../../src/scenarios/load/load-report.js';
import { computeStatistics } from '../../src/core/statistics.js';
import type { GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import type { TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { runOf } from '../helpers/round-cells.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];
const UNAVAILABLE = Array.from({ length: 13 }, (_, i) => ({ id: `engine-${i}`, reason: 'unavailable: needs something this machine lacks, explained at length in a paragraph' }));
/** The CLI prints the files written (two lines at 100 columns), the history line and a blank line after the report. */
const BUDGET = 45 - 4;
const session = (engine: string) => ({ engine, backend: 'wasm', threads: 1, precision: 'fp32', versions: {} });
const rounds = (ms: number) => ({ rounds: 3, means: [ms * 0.98, ms, ms * 1.02], mean: ms, stdev: ms * 0.02, ci95: { low: ms * 0.95, high: ms * 1.05, halfWidth: ms * 0.05 } });
const base = runOf([]);
const record = { ...base, config: { ...base.config, unavailableEngines: UNAVAILABLE }, models: [{ name: 'tiny-gpt2 (embedded default)', source: '/m', sizeBytes: 1, notes: [] }] };

function assertOneScreen(text: string, answer: RegExp, what: string): void {
  const lines = text.split('\n');
  assert.ok(lines.length <= BUDGET, `${what}: ${lines.length} lines:\n${text}`);
  assert.ok(lines.every((l) => [...l].length <= 100), `${what} fits 100 columns`);
  const firstTable = lines.findIndex((l) => l.startsWith('='));
  assert.match(lines.slice(0, firstTable).join('\n'), answer, `${what}: the answer comes before any table`);
  assert.match(text, /13 engines not available here/u, what);
}

test('generate: 7 engines × 2 batch sizes × 2 prompt lengths fit one screen, a row per engine and batch size', () => {
  const cells = ENGINES.flatMap((engine, e) =>
    [1, 4].flatMap((batchSize) =>
      [32, 128].map((promptLength) => ({
        model: 'tiny-gpt2', engine, batchSize, promptLength, newTokens: 32, requestedThreads: null, state: 'completed', session: session(engine), openMs: 10, warmupRuns: 1, samples: [],
        ttft: computeStatistics([2 + e, 2.1 + e]), tpot: computeStatistics([0.4 + e / 10, 0.41 + e / 10]), decodeTokensPerSecond: 2000 / (1 + e), prefillTokensPerSecond: 100, peakRssBytes: 1 << 28, peakGpuBytes: null, earlyStops: 0,
        betweenRounds: { ttft: rounds(2 + e), tpot: rounds(0.4 + e / 10) }, verdict: { status: e % 2 === 0 ? 'VALID' : 'NOISY', reasons: e % 2 === 0 ? [] : ['rounds disagree'] },
      })),
    ),
  );
  const run = { ...record, kind: 'generate', cells } as unknown as GenerationRunRecord;
  const text = renderGenerationReport(run, { width: 100, historyId: 4 });
  assertOneScreen(text, /^Fastest engine per configuration[^\n]*\n {2}batch 1, p32: onnx-cpu: TTFT 2\.\d+ ms \(1\.\d×\), TPOT 405 µs \(1\.2×\), 2\.00k tok\/s$/mu, 'generate');
  assert.match(text, /TTFT p32 +TPOT p32 +TTFT p128 +TPOT p128/u, 'a TTFT and a TPOT column per prompt length');
  assert.match(text, /Verdicts: 16 of 28 completed cells VALID, 12 NOISY; `inferbench show 4 --view noise`/u);
  const details = renderGenerationReport(run, { width: 100, details: true });
  for (const title of ['TIME TO FIRST TOKEN', 'TIME PER OUTPUT TOKEN', 'THROUGHPUT AND PEAK MEMORY', 'NOISY onnx-wasm batch 1 prompt 32 new 32']) assert.ok(details.includes(title), title);
});

test('train: 4 engines that train and 3 that cannot fit one screen, the 3 on one line', () => {
  const step = computeStatistics([12, 13, 11]);
  const cells = ENGINES.map((engine, e) =>
    engine.startsWith('tfjs')
      ? {
          model: 'tiny-bert', engine, batchSize: 8, sequenceLength: null, requestedThreads: null, state: 'completed', session: session(engine), stepTime: { ...step, mean: 12 + e },
          betweenRounds: rounds(12 + e), verdict: { status: 'VALID', reasons: [] }, openMs: 10, warmSteps: 2, steps: 20, rounds: 3, stepLog: [], forwardTime: step, backwardTime: step, updateTime: step,
          samplesPerSecond: 640, peakRssBytes: 1 << 30, peakRssScope: 'process', engineBytes: { before: 1 << 20, after: 1 << 21, peak: 1 << 22 },
          training: { optimizer: 'sgd', learningRate: 0.01, firstLoss: 0.693147, lastLoss: 0.5, stepsPerRound: 22 },
        }
      : { model: 'tiny-bert', engine, batchSize: 8, sequenceLength: null, requestedThreads: null, state: 'skipped', reason: `${engine.startsWith('onnx-wasm') ? 'onnxruntime-web' : 'onnxruntime-node'} has no training API: it exports only InferenceSession` },
  );
  const run = { ...record, kind: 'train', cells } as unknown as TrainingRunRecord;
  const text = renderTrainingReport(run, { width: 100, historyId: 2 });
  assertOneScreen(text, /^Fastest training step per batch size[^\n]*\n {2}batch 8: tfjs-wasm 14\.\d ms a step \([\d.]+ samples\/s\), 1\.\d+× ahead of tfjs-cpu/mu, 'train');
  assert.match(text.replace(/\n/gu, ' '), /Not completed: 3 cells, skipped \(onnxruntime-node has no training API\): onnx-cpu, transformers-js; skipped \(onnxruntime-web has no training API\): onnx-wasm; `inferbench show 2 --view reasons`/u);
  for (const gone of ['TRAIN – MEMORY', 'TRAIN – LOSS']) assert.ok(!text.includes(gone), `${gone} only with details`);
  const details = renderTrainingReport(run, { width: 100, details: true });
  for (const title of ['TRAIN – SPEED', 'TRAIN – MEMORY', 'TRAIN – LOSS', 'onnxruntime-node has no']) assert.ok(details.includes(title), title);
});

test('load: a peak per engine fits one screen, best first with the call', () => {
  const cells = ENGINES.map((engine, e) => {
    const last = 400 - e * 40;
    const peak = { rounds: [{ round: 0, lastPass: last, firstFail: last + 20, probes: 7 }], acrossRounds: { mean: last, min: last, max: last, ci95: null } };
    return { model: 'tiny-bert', engine, batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 1, probes: [], peak, serviceMs: { batchOne: 1, maxBatch: 1 }, session: session(engine) };
  });
  const run = { ...record, kind: 'load', config: { ...record.config, settings: { slo: { percentile: 99, limitMs: 50 } } }, cells } as unknown as LoadRunRecord;
  const text = renderLoadReport(run, { width: 100, historyId: 3 });
  assertOneScreen(text, /^Peak sustainable rate per engine \(req\/s; p99=50ms, VALID; last pass – first fail\):\n {2}onnx-cpu +400 {2}\(400 – 420\)\n(.*\n)* {2}onnx-cpu: highest, 1\.11× onnx-wasm: it passed 400, where onnx-wasm failed from 380/mu, 'load');
  assert.match(text, /PEAK RATE/u);
  assert.doesNotMatch(text, /per round|probes/u, 'the per-round intervals only in the peak view');
  assert.match(renderLoadReport(run, { width: 100, details: true }), /per round +probes/u);
});

test('load: 10 engines at 3 rates fit one screen, a row per engine and a column per rate', () => {
  const engines = [...ENGINES, 'tfjs-node', 'tfjs-node-saved-model', 'tfjs-node-graph-model'];
  const summary = (rate: number, e: number) => {
    const p99 = 2 + e + rate / 10;
    const ok = rate <= 400 - e * 30;
    return {
      requests: 100, completedRequests: 100, unfinished: 0, offeredRps: rate, achievedRps: ok ? rate : rate / 2, measuredMs: 1000,
      latency: { mean: p99 / 2, p50: p99 / 3, p90: p99 / 2, p95: p99 / 1.5, p99, p999: p99 * 1.1, max: p99 * 1.2, censoredFromMs: null },
      queueWait: { mean: 0.1, p99: 0.5 }, parts: { queueMs: 0.1, prepareMs: 0.1, engineMs: 1, postMs: 0.1 }, batchSizes: { 1: 100 }, queueDepth: { firstQuarter: 0, lastQuarter: ok ? 0 : 9 },
      slo: { percentile: 99, limitMs: 50, valueMs: p99, met: ok, goodputRps: ok ? rate : 0, overShare: ok ? 0 : 0.5 },
      verdict: ok ? { status: 'VALID', reasons: [] } : { status: 'overloaded', reasons: ['achieved below offered'] },
    };
  };
  const cells = engines.map((engine, e) => ({
    model: 'tiny-bert', engine, batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 1, peak: null, serviceMs: { batchOne: 1, maxBatch: 1 }, session: session(engine),
    probes: [50, 200, 350].map((rate) => ({ targetRps: rate, purpose: 'rate', round: 0, passed: summary(rate, e).slo.met, endedEarly: null, summary: summary(rate, e), samples: { latencyMs: [], completed: [], queueMs: [] } })),
  }));
  const run = { ...record, kind: 'load', config: { ...record.config, settings: { slo: { percentile: 99, limitMs: 50 } } }, cells } as unknown as LoadRunRecord;
  const text = renderLoadReport(run, { width: 100, historyId: 5 });
  assertOneScreen(text, /^Highest rate sustained per engine, of the rates asked \(req\/s; p99=50ms, VALID; the next rate\):\n {2}onnx-cpu +350 {2}\(the highest asked\)/mu, 'load');
  assert.match(text, /^engine +p99 @ 50\.0 +p99 @ 200 +p99 @ 350$/mu, 'a column per rate');
  assert.match(text, /^transformers-js +[\d.]+ ms ✓ +[\d.]+ ms ✓ +[\d.]+ ms ✗ overloaded$/mu, 'each cell marked as the full table marks it');
  assert.match(renderLoadReport(run, { width: 100, details: true }), /LATENCY UNDER LOAD – per engine and offered rate/u, 'the full rate table with --details');
});
