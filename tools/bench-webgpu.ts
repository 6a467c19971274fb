/**
 * `npm run bench:webgpu`: how much the harness adds to onnx-webgpu's
 * per-batch time, against a bare onnxruntime-node WebGPU `session.run` loop
 * over the same pre-tokenized batches with the same session options: the
 * bench:overhead method (tools/bench-arms.ts) on the WebGPU provider.
 *
 * Each round runs three arms over the same rows: two bare loops (A and A′,
 * an A/A control whose difference is pure noise) and the harness (H). The
 * order alternates every round (A H A′, then A′ H A) so drift in machine
 * speed hits every arm alike; per round H is divided by the mean of A and
 * A′. The medians over rounds are printed with the A/A band. Target: H at
 * most 5% slower than bare.
 *
 * The adapter is printed first: on a machine without a GPU it is a software
 * adapter (SwiftShader, with VK_ICD_FILENAMES set by the user), and the
 * figures are then the harness's overhead on that adapter, not a GPU's.
 * Environment: BENCH_ROWS (8), BENCH_ROUNDS (6), BENCH_BATCHES (1),
 * BENCH_ARM_MS (2000).
 */
import { availableParallelism, loadavg } from 'node:os';
import * as ort from 'onnxruntime-node';
import { Benchmark } from '../src/runs/benchmark.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { dawnAdapter } from '../engines/webgpu/dawn-adapter.js';
import { openDataset } from '../datasets/open-dataset.js';
import { resolveColumns } from '../datasets/columns.js';
import { median } from './bench-passes.js';
import { bareMean, harnessMean, ortFeeds, pct } from './bench-arms.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 8);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 6);
const BATCH_SIZES = (process.env['BENCH_BATCHES'] ?? '1').split(',').map(Number);
const ARM_MS = Number(process.env['BENCH_ARM_MS'] ?? 2000);
const THREADS = availableParallelism();

const probe = await dawnAdapter();
if (!probe.ok) {
  console.error(`bench:webgpu: no WebGPU adapter: ${probe.reason} (${probe.enable})`);
  process.exit(2);
}
const model = await defaultClassifier();
const columns = resolveColumns(await (await openDataset()).columns());
// The options the onnx-webgpu engine uses (engines/onnx/onnx-node-engine.ts), so only the harness differs.
const bare = await ort.InferenceSession.create(model.onnxPath(), {
  executionProviders: ['webgpu'],
  intraOpNumThreads: THREADS,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
});
const session = await createOnnxNodeEngine('webgpu').open(model.onnxPath(), { threads: THREADS, precision: 'fp32' });

console.log(`bench:webgpu — onnx-webgpu, ${model.name}, ${ROWS} rows, ${ROUNDS} rounds alternating, ${THREADS} CPU threads, load ${loadavg()[0]?.toFixed(2)}`);
console.log(`adapter: ${probe.adapter.label} (${probe.adapter.vendor} / ${probe.adapter.architecture} / ${probe.adapter.description})${probe.adapter.software ? ': a software adapter on the CPU, not a GPU' : ''}`);
console.log(`harness backend as read back: ${session.describe().backend}`);
console.log('arms: A, A′ = bare onnxruntime-node WebGPU session.run loops (A/A control); H = onnx-webgpu in the harness');
console.log('batch   bare A (ms)   A′/A (A/A noise: median [min, max])   H/bare: harness overhead [min, max]');
for (const batchSize of BATCH_SIZES) {
  const feeds: ort.InferenceSession.FeedsType[] = [];
  for await (const rows of (await openDataset()).take(ROWS).batches(batchSize)) feeds.push(ortFeeds(ort, model.prepareBatch(rows, columns)));
  const passes = Math.max(1, Math.round(ARM_MS / (feeds.length * (await bareMean(bare, feeds, 1)))));
  // One round of whole passes, no parity: the work the bare loop does.
  const bench = new Benchmark({ batchSizes: [batchSize], limit: ROWS, rounds: 1, warmupBatches: 2, stop: { minTimeMs: 0, minBatches: passes * feeds.length }, parity: { reference: null } });
  const control: number[] = [];
  const harness: number[] = [];
  const bareA: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const arms: Record<string, () => Promise<number>> = {
      A: () => bareMean(bare, feeds, passes),
      H: () => harnessMean(bench, session, 'onnx-webgpu', model),
      'A′': () => bareMean(bare, feeds, passes),
    };
    const m: Record<string, number> = {};
    for (const arm of round % 2 === 0 ? ['A', 'H', 'A′'] : ['A′', 'H', 'A']) m[arm] = await (arms[arm] as () => Promise<number>)();
    const a = m['A'] as number;
    bareA.push(a);
    control.push((m['A′'] as number) / a);
    harness.push((m['H'] as number) / ((a + (m['A′'] as number)) / 2));
  }
  const band = (xs: number[]): string => `${pct(median(xs))} [${pct(Math.min(...xs))}, ${pct(Math.max(...xs))}]`;
  console.log(`${String(batchSize).padStart(5)}  ${median(bareA).toFixed(2).padStart(10)}    ${band(control).padEnd(38)} ${band(harness)}`);
}
console.log('each figure: median over rounds of (arm mean / mean of the two bare arms A, A′ in the same round) − 1 (A′/A: A/A control); engine time per batch, outputs in host memory; target: H/bare at most +5%');
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${THREADS} cores`);
await session.dispose();
await bare.release();
process.exit(0);
