/**
 * Issue 47, item 5: the dashboard's Compare works for every kind the CLI
 * compares. Generate and train had a terminal comparison only, so
 * `GET /api/compare` refused two generate or two train benchmarks; each now
 * answers the JSON shape the Compare tab reads for every kind (rows with A
 * and B figures and a call text, the figure they hold named by the scenario).
 * And `inferbench compare` of two train runs, which borrowed run's
 * comparison and stopped with an internal error on a training cell's round
 * count ("number 3 is not iterable"), now calls each step time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeStatistics } from '../../src/core/statistics.js';
import { scenarioByCommand } from '../../src/scenarios/scenario-registry.js';
import '../../src/runs/builtin-scenarios.js';
import { runOf } from '../helpers/round-cells.js';

const session = (engine: string) => ({ engine, backend: 'cpu', threads: 2, precision: 'fp32', versions: {} });
const rounds = (ms: number) => ({ rounds: 3, means: [ms * 0.98, ms, ms * 1.02], mean: ms, stdev: ms * 0.02, ci95: { low: ms * 0.95, high: ms * 1.05, halfWidth: ms * 0.05 } });
const base = runOf([]);

function generation(id: string, scale: number) {
  const cells = ['onnx-cpu', 'onnx-wasm'].map((engine, e) => ({
    model: 'tiny-gpt2', engine, batchSize: 1, promptLength: 32, newTokens: 8, requestedThreads: null, state: 'completed', session: session(engine), openMs: 10, warmupRuns: 1, samples: [],
    ttft: computeStatistics([(2 + e) * scale, (2.1 + e) * scale]), tpot: computeStatistics([0.4 * scale, 0.41 * scale]), decodeTokensPerSecond: 2000, prefillTokensPerSecond: 100, peakRssBytes: 1, peakGpuBytes: null, earlyStops: 0,
    betweenRounds: { ttft: rounds((2 + e) * scale), tpot: rounds(0.4 * scale) }, verdict: { status: 'VALID', reasons: [] },
  }));
  return { ...base, id, kind: 'generate', cells };
}

function training(id: string, ms: number) {
  const step = computeStatistics([ms, ms * 1.01, ms * 0.99]);
  const cell = {
    model: 'tiny-bert', engine: 'tfjs-cpu', batchSize: 8, sequenceLength: null, requestedThreads: null, state: 'completed', session: session('tfjs-cpu'), stepTime: step,
    betweenRounds: rounds(ms), verdict: { status: 'VALID', reasons: [] }, openMs: 10, warmSteps: 2, steps: 20, rounds: 3, stepLog: [], forwardTime: step, backwardTime: step, updateTime: step,
    samplesPerSecond: 640, peakRssBytes: 1, peakRssScope: 'process', engineBytes: null, training: { optimizer: 'sgd', learningRate: 0.01, firstLoss: 0.69, lastLoss: 0.5, stepsPerRound: 22 },
  };
  return { ...base, id, kind: 'train', cells: [cell] };
}

interface ComparedJson {
  readonly figure?: string;
  readonly cells: readonly { readonly label: string; readonly aMeanMs: number | null; readonly bMeanMs: number | null; readonly callText: string }[];
}

test("the dashboard compares two generate benchmarks: each cell's TTFT on both sides and both ratios, no call", () => {
  const compare = scenarioByCommand('generate').compare;
  assert.ok(compare?.json && compare.keys, 'generate has a dashboard comparison');
  const [a, b] = [generation('a', 1), generation('b', 2)];
  const json = compare.json({ id: 1, record: a as never }, { id: 2, record: b as never }) as unknown as ComparedJson;
  assert.equal(json.figure, 'TTFT');
  assert.deepEqual(json.cells.map((c) => [c.aMeanMs, c.bMeanMs]), [[2, 4], [3, 6]]);
  assert.match(json.cells[0]?.callText ?? '', /^TTFT B\/A 2\.00×, TPOT B\/A 2\.00× \(no call\)$/u);
  assert.equal(compare.keys(a as never).size, 2, 'two cells to match on');
});

test('the dashboard compares two train benchmarks as run compares them, on the step time', () => {
  const compare = scenarioByCommand('train').compare;
  assert.ok(compare?.json && compare.keys, 'train has a dashboard comparison');
  const [a, b] = [training('a', 10), training('b', 20)];
  const json = compare.json({ id: 1, record: a as never }, { id: 2, record: b as never }) as unknown as ComparedJson;
  assert.equal(json.cells.length, 1);
  assert.deepEqual([json.cells[0]?.aMeanMs, json.cells[0]?.bMeanMs], [10, 20]);
  assert.match(json.cells[0]?.callText ?? '', /slower/u);
  assert.equal((json as unknown as { figure: string }).figure, 'step');
  assert.equal(compare.keys(a as never).size, 1);
});

test('inferbench compare of two train runs calls each step time instead of stopping with an internal error', () => {
  const compare = scenarioByCommand('train').compare;
  assert.ok(compare?.terminal);
  const out = compare.terminal(training('a', 10) as never, training('b', 20) as never, { color: false, width: 100, files: ['a/results.json', 'b/results.json'], minEffect: () => 0.05 });
  assert.match(out.text, /^A a against B b, 1 training cell in common: 1 slower\.$/mu);
  assert.match(out.text, /tfjs-cpu · batch 8 · 2 threads +10\.0 ms +20\.0 ms +2\.00×/u);
});
