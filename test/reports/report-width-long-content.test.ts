/**
 * Issue 34, item 2, on the content a fresh default run really prints: the
 * seven default Node engines (the longest names: tfjs-cpu-graph-model,
 * tfjs-wasm-graph-model), a PARTIAL and NOISY cell, errored and skipped
 * cells with long reasons, parity reference rows, two long model names and
 * two batch sizes. Every section of the run, generate, train and load
 * reports fits 80, 100 and 120 columns at its cause (`strict`: no line left
 * for the last pass, which breaks a table row mid-row and collapses its
 * columns, as the fresh run's COLD START table was), and `--wide` keeps
 * lines whole. The other width tests (report-fits-terminal,
 * report-width-every-command) use content none of this triggers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { renderGenerationReport } from '../../src/scenarios/generate/generation-report.js';
import { renderTrainingReport } from '../../src/scenarios/train/training-report.js';
import { renderLoadReport } from '../../src/scenarios/load/load-report.js';
import { fitReport } from '../../reports/report-layout.js';
import { visibleLength } from '../../reports/text-table.js';
import { computeStatistics } from '../../src/core/statistics.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import type { GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import type { TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];
const MODELS = ['tiny-bert (embedded default)', 'Xenova/paraphrase-multilingual-MiniLM-L12-v2 · q8'];
const WIDTHS = [80, 100, 120];
const ERRORED =
  'Error: WebGPU adapter request returned null: no adapter matched powerPreference high-performance on this host (SwiftShader Vulkan 1.3.0), so the engine cannot run; pass --engines without it or install a Vulkan driver';
const SKIPPED =
  'tfjs-node is not built on this machine: @tensorflow/tfjs-node needs its native addon, which npm 11 did not build because allowScripts denies it; see README "Native engines"';

/** The default run's shape, with every long thing a run can print. */
function defaultLikeRun(): RunRecord {
  const cells: CellResult[] = [];
  for (const model of MODELS) {
    ENGINES.forEach((engine, e) => {
      for (const batchSize of [1, 8]) {
        const partial = engine === 'tfjs-cpu-graph-model' && batchSize === 1;
        const rounds = partial
          ? [{ passes: 0, seen: 12, meanMs: 161 }, { passes: 0, seen: 12, meanMs: 2400 }]
          : [0.4, 4, 1].map((f) => ({ passes: 1, meanMs: (1 + e) * batchSize * f }));
        const cell = cellFromRounds({ model, engine, batchSize, rows: 16, rounds, threads: engine === 'onnx-cpu' ? 2 : 1, ...(engine === 'transformers-js' ? { forwardShare: 0.8 } : {}) });
        const parity = engine === 'onnx-cpu' ? null : { reference: 'onnx-cpu', maxAbsDiff: 1.2e-6, argmaxAgreement: 1, tolerance: 1e-4, withinTolerance: true, rows: 16 };
        cells.push({ ...cell, accuracy: 0.688, accuracyRows: { counted: 16, seen: 16, of: 16 }, parity });
      }
    });
    cells.push({ model, engine: 'browser-transformers-js-webgpu', batchSize: 8, requestedThreads: null, state: 'errored', reason: ERRORED });
    cells.push({ model, engine: 'tfjs-node-gpu-graph-model', batchSize: 1, requestedThreads: null, state: 'skipped', reason: SKIPPED });
  }
  const base = runOf([]);
  return {
    ...base,
    models: MODELS.map((name) => ({ name, source: `/home/someone/.cache/inferbench/models/${name}/onnx/model_quantized.onnx`, sizeBytes: 17_000_000, notes: ['weights are seeded random; outputs are not meaningful, timings are'] })),
    config: { ...base.config, engines: [...ENGINES], batchSizes: [1, 8], limit: 16, parity: { reference: 'onnx-cpu' } },
    cells,
  };
}

/** The one screen (issue 47) fits every width at its cause too; its tables are compact, so --wide need not run past 120. */
function assertScreenFits(render: (o: { width?: number; strict?: boolean }) => string, what: string): void {
  for (const width of WIDTHS) assert.deepEqual(render({ width, strict: true }).split('\n').filter((l) => visibleLength(l) > width), [], `${what}, one screen, at ${width} columns`);
}

function assertFits(render: (o: { width?: number; wide?: boolean; strict?: boolean }) => string, what: string): void {
  for (const width of WIDTHS) {
    // strict: a line a section left wider than the width throws, naming it (report-layout.ts).
    const text = render({ width, strict: true });
    const over = text.split('\n').filter((l) => visibleLength(l) > width);
    assert.deepEqual(over, [], `${what} at ${width} columns`);
  }
  assert.ok(render({ width: 80, wide: true }).split('\n').some((l) => visibleLength(l) > 120), `${what} --wide keeps lines whole`);
}

test('strict layout names a line a section left wider than the width, instead of breaking it', () => {
  const line = `engine  ${'x'.repeat(60)}`;
  assert.throws(() => fitReport([line], { width: 40, strict: true }, 40), /1 line\(s\) wider than 40 columns left for the last pass:\nengine {2}x+/u);
  assert.deepEqual(fitReport([line], { width: 40, wide: true }, 40), [line]);
});

test('the run report fits 80, 100 and 120 columns at every section\'s cause, with the default run\'s longest content', () => {
  const run = defaultLikeRun();
  assertFits((o) => renderTerminalReport(run, { ...o, details: true }), 'run');
  assertFits((o) => renderTerminalReport(run, o), 'run, one screen');
  // A name is never cut: one too wide for its column wraps onto a second line of its row, whole.
  const narrow = renderTerminalReport(run, { details: true, width: 80 });
  const speed = narrow.slice(narrow.indexOf('INFERENCE – SPEED'));
  assert.match(speed, /tfjs-cpu-graph-model|tfjs-cpu-graph-\n\s*model/u);
  assert.doesNotMatch(narrow, /tfjs-cpu-gr…|tfjs-wasm-g…/u);
  // Each failed cell's reason is printed whole below the tables, under its cell, within the width.
  const reasons = narrow.slice(narrow.indexOf('Reasons in full:')).replace(/\n +/gu, ' ');
  assert.ok(reasons.includes(ERRORED) && reasons.includes(SKIPPED), reasons.slice(0, 600));
});

test('the generate, train and load reports fit 80, 100 and 120 columns at their cause, with long names and reasons', () => {
  const run = defaultLikeRun();
  const session = (engine: string) => ({ engine, backend: 'wasm', threads: 1, precision: 'fp32', versions: {} });
  const generation = {
    ...run,
    kind: 'generation',
    cells: ENGINES.flatMap((engine) => [
      {
        model: MODELS[1], engine, batchSize: 1, promptLength: 128, newTokens: 64, requestedThreads: null, state: 'completed', session: session(engine), openMs: 10, warmupRuns: 0, samples: [],
        ttft: computeStatistics([40, 41, 39]), tpot: computeStatistics([20, 21]), decodeTokensPerSecond: 1000, prefillTokensPerSecond: 100, peakRssBytes: 1 << 30, peakGpuBytes: null, earlyStops: 0,
        verdict: { status: 'NOISY', reasons: ['rounds disagree: 95% CI across 3 rounds ±82.8% (above ±5%)'] },
      },
      { model: MODELS[1], engine: `browser-${engine}`, batchSize: 1, promptLength: 128, newTokens: 64, requestedThreads: null, state: 'errored', reason: ERRORED },
    ]),
  } as unknown as GenerationRunRecord;
  assertFits((o) => renderGenerationReport(generation, { ...o, details: true }), 'generate');
  assertScreenFits((o) => renderGenerationReport(generation, o), 'generate');

  const step = computeStatistics([12, 13, 11]);
  const training = {
    ...run,
    kind: 'training',
    cells: ENGINES.flatMap((engine) => [
      {
        model: MODELS[1], engine, batchSize: 8, sequenceLength: null, requestedThreads: null, state: 'completed', session: session(engine), stepTime: step,
        betweenRounds: { rounds: 3, means: [12, 13, 11], mean: 12, stdev: 1, ci95: { low: 9.5, high: 14.5 } },
        verdict: { status: 'NOISY', reasons: ['rounds disagree: 95% CI across 3 rounds ±82.8% (above ±5%); CV 201.9% above 100%'] },
        openMs: 10, warmSteps: 2, steps: 20, rounds: 3, stepLog: [], forwardTime: step, backwardTime: step, updateTime: step, samplesPerSecond: 640, peakRssBytes: 1 << 30, peakRssScope: 'process',
        engineBytes: { before: 1 << 20, after: 1 << 21, peak: 1 << 22 },
        training: { optimizer: 'sgd', learningRate: 0.01, firstLoss: 0.693147, lastLoss: 0.5, stepsPerRound: 20 },
      },
      { model: MODELS[1], engine: `${engine}-gpu-graph-model`, batchSize: 8, sequenceLength: null, requestedThreads: null, state: 'skipped', reason: SKIPPED },
    ]),
  } as unknown as TrainingRunRecord;
  assertFits((o) => renderTrainingReport(training, { ...o, details: true }), 'train');
  assertScreenFits((o) => renderTrainingReport(training, o), 'train');

  // Each engine's peak searched in three rounds (PEAK RATE), and each one's browser twin failed (the other tables' failed rows).
  const peak = {
    rounds: [
      { round: 0, lastPass: 400, firstFail: 420, probes: 7 },
      { round: 1, lastPass: 380, firstFail: 400, probes: 6 },
      { round: 2, lastPass: 420, firstFail: 440, probes: 6 },
    ],
    acrossRounds: { mean: 400, min: 380, max: 420, ci95: { low: 353.275, high: 452.905 } },
  };
  const load = {
    ...run,
    kind: 'server',
    cells: ENGINES.flatMap((engine) => [
      { model: MODELS[1], engine, batchSize: 1, requestedThreads: null, state: 'completed', openMs: 1, rounds: 3, probes: [], peak, serviceMs: { batchOne: 1, maxBatch: 1 }, session: session(engine) },
      { model: MODELS[1], engine: `browser-${engine}`, batchSize: 1, requestedThreads: null, state: 'errored', reason: ERRORED },
    ]),
  } as unknown as LoadRunRecord;
  for (const width of WIDTHS) {
    const text = renderLoadReport(load, { width, strict: true, details: true });
    assert.deepEqual(renderLoadReport(load, { width, strict: true }).split('\n').filter((l) => visibleLength(l) > width), [], `load, one screen, at ${width} columns`);
    assert.deepEqual(text.split('\n').filter((l) => visibleLength(l) > width), [], `load at ${width} columns`);
  }
});
