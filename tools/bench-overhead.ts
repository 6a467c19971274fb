/**
 * `npm run bench:overhead`: how much the harness adds to onnx-cpu's per-batch
 * time, against a bare `InferenceSession.run` loop over the same
 * pre-tokenized batches with the same session options.
 *
 * Each round runs five arms over the same rows: two bare loops (A and A′, an
 * A/A control whose difference is pure noise), the harness as shipped (peak
 * RSS from the kernel's high-water mark), the harness with the 200 Hz RSS
 * sampling thread forced on (to price that thread), and a bare loop that
 * tokenizes between calls like the harness (P: the cost of the gap between
 * calls, not of harness code). The order alternates every round (A H A′ Hw P,
 * then P Hw A′ H A) so drift in machine speed hits every arm alike. Per round, each arm's mean is divided by the mean of
 * the two bare arms (A runs first or last, A′ in the middle: together they sit where H sits on average); the
 * medians of those ratios over rounds are printed, with the A/A control's
 * median and its min–max band beside them: an overhead inside that band is
 * indistinguishable from noise.
 */
import { availableParallelism, loadavg } from 'node:os';
import * as ort from 'onnxruntime-node';
import { Benchmark } from '../src/runs/benchmark.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { openDataset } from '../datasets/open-dataset.js';
import { resolveColumns } from '../datasets/columns.js';
import { RSS_SAMPLER_ENV } from '../src/scenarios/rss-sampler.js';
import type { TensorMap } from '../src/core/tensor.js';
import type { DataRow } from '../datasets/dataset.js';
import { median } from './bench-passes.js';
import { bareMean as bareLoopMean, harnessMean as harnessCellMean, ortFeeds, pct } from './bench-arms.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 256);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 12);
const BATCH_SIZES = (process.env['BENCH_BATCHES'] ?? '1,32').split(',').map(Number);
const THREADS = availableParallelism();

const model = await defaultClassifier();
const columns = resolveColumns(await (await openDataset()).columns());
// The options the onnx-cpu engine uses (engines/onnx/onnx-node-engine.ts), so only the harness differs.
const bare = await ort.InferenceSession.create(model.onnxPath(), {
  executionProviders: ['cpu'],
  intraOpNumThreads: THREADS,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
});
const session = await createOnnxNodeEngine('cpu').open(model.onnxPath(), { threads: THREADS, precision: 'fp32' });

/** Passes over the rows per arm: enough for about ARM_MS of engine time, so one arm is not a few dozen ms of noise. */
const ARM_MS = Number(process.env['BENCH_ARM_MS'] ?? 400);

function bareMean(feeds: readonly ort.InferenceSession.FeedsType[], passes: number): Promise<number> {
  return bareLoopMean(bare, feeds, passes);
}

/**
 * The bare loop with the harness's gap: each batch is tokenized between
 * calls (untimed), as the harness does. Beside H it separates what the
 * harness's code costs from what any loop that prepares inputs between calls
 * pays (ORT's idle worker threads, caches the tokenizer evicted).
 */
async function bareWithPrepareMean(rowBatches: readonly DataRow[][], passes: number): Promise<number> {
  let total = 0;
  for (let p = 0; p < passes; p++) {
    for (const rows of rowBatches) {
      const f = ortFeeds(ort, model.prepareBatch(rows, columns));
      const t0 = performance.now();
      await bare.run(f);
      total += performance.now() - t0;
    }
  }
  return total / (rowBatches.length * passes);
}

async function harnessMean(bench: Benchmark, sampler: 'kernel' | 'worker'): Promise<number> {
  if (sampler === 'worker') process.env[RSS_SAMPLER_ENV] = 'worker';
  try {
    return await harnessCellMean(bench, session, 'onnx-cpu', model);
  } finally {
    delete process.env[RSS_SAMPLER_ENV];
  }
}

console.log(`bench:overhead — onnx-cpu, ${model.name}, ${ROWS} rows, ${ROUNDS} rounds alternating ABAB, ${THREADS} threads, load ${loadavg()[0]?.toFixed(2)}`);
console.log('arms: A, A′ = bare session.run loops (A/A control); H = harness as shipped; Hw = harness with the 200 Hz RSS sampling thread');
console.log('        P = bare loop that tokenizes each batch between calls (untimed), as the harness does');
console.log('batch   bare A (ms)   A′/A (A/A noise: median [min, max])   H/bare: harness overhead   Hw/bare: with sampling thread   Hw/H     P/bare: gap alone');
for (const batchSize of BATCH_SIZES) {
  const dataset = (await openDataset()).take(ROWS);
  const feeds: ort.InferenceSession.FeedsType[] = [];
  const rowBatches: DataRow[][] = [];
  for await (const rows of dataset.batches(batchSize)) {
    rowBatches.push([...rows]);
    const b: TensorMap = model.prepareBatch(rows, columns);
    feeds.push(ortFeeds(ort, b));
  }
  // Calibrate: enough whole passes per arm for about ARM_MS of engine time.
  const passes = Math.max(1, Math.round(ARM_MS / (feeds.length * (await bareMean(feeds, 1)))));
  // The same passes per harness arm (one round, whole passes until that many batches), no parity: the work the bare loop does.
  const bench = new Benchmark({ batchSizes: [batchSize], limit: ROWS, rounds: 1, warmupBatches: 2, stop: { minTimeMs: 0, minBatches: passes * feeds.length }, parity: { reference: null } });
  const ratios = { control: [] as number[], harness: [] as number[], worker: [] as number[], workerVsHarness: [] as number[], gap: [] as number[] };
  const bareA: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const arms: Record<string, () => Promise<number>> = {
      A: () => bareMean(feeds, passes),
      H: () => harnessMean(bench, 'kernel'),
      'A′': () => bareMean(feeds, passes),
      Hw: () => harnessMean(bench, 'worker'),
      P: () => bareWithPrepareMean(rowBatches, passes),
    };
    const order = round % 2 === 0 ? ['A', 'H', 'A′', 'Hw', 'P'] : ['P', 'Hw', 'A′', 'H', 'A'];
    const m: Record<string, number> = {};
    for (const arm of order) m[arm] = await (arms[arm] as () => Promise<number>)();
    const a = m['A'] as number;
    // The harness is held against both bare arms' mean: A runs first or last in a round and A′ in the middle,
    // like H on average, so position effects cancel; A′/A alone is the A/A control.
    const bareBoth = (a + (m['A′'] as number)) / 2;
    bareA.push(a);
    ratios.control.push((m['A′'] as number) / a);
    ratios.harness.push((m['H'] as number) / bareBoth);
    ratios.worker.push((m['Hw'] as number) / bareBoth);
    ratios.workerVsHarness.push((m['Hw'] as number) / (m['H'] as number));
    ratios.gap.push((m['P'] as number) / bareBoth);
  }
  const band = `${pct(median(ratios.control))} [${pct(Math.min(...ratios.control))}, ${pct(Math.max(...ratios.control))}]`;
  console.log(
    `${String(batchSize).padStart(5)}  ${median(bareA).toFixed(4).padStart(10)}    ${band.padEnd(38)} ${pct(median(ratios.harness)).padStart(9)}` +
      `               ${pct(median(ratios.worker)).padStart(9)}                    ${pct(median(ratios.workerVsHarness)).padStart(7)}   ${pct(median(ratios.gap)).padStart(8)}`,
  );
}
console.log('each figure: median over rounds of (arm mean / mean of the two bare arms A, A′ in the same round) − 1 (A′/A: A/A control); target: H/bare within 2% (and inside the A/A band)');
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${THREADS} cores`);
await session.dispose();
await bare.release();
