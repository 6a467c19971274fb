/**
 * `npm run bench:overhead`: how much the harness adds to onnx-cpu's per-batch
 * time. Compares the latency Benchmark reports with a bare
 * `InferenceSession.run` loop over the same pre-tokenized batches, in
 * alternating rounds so drift in machine speed hits both sides alike.
 */
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { Benchmark } from '../src/runs/benchmark.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { openDataset } from '../datasets/open-dataset.js';
import { resolveColumns } from '../datasets/columns.js';
import type { TensorMap } from '../src/core/tensor.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 256);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 7);
const BATCH_SIZES = [1, 32];
const THREADS = availableParallelism();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function batchesOf(batchSize: number, prepare: (rows: Parameters<typeof model.prepareBatch>[0]) => TensorMap): Promise<TensorMap[]> {
  const dataset = (await openDataset()).take(ROWS);
  const out: TensorMap[] = [];
  for await (const rows of dataset.batches(batchSize)) out.push(prepare(rows));
  return out;
}

const model = await defaultClassifier();
const columns = resolveColumns(await (await openDataset()).columns());
const bare = await ort.InferenceSession.create(model.onnxPath(), {
  executionProviders: ['cpu'],
  intraOpNumThreads: THREADS,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
});
const engine = createOnnxNodeEngine('cpu');
const session = await engine.load(model.onnxPath(), { threads: THREADS, precision: 'fp32' });

console.log(`bench:overhead — onnx-cpu, ${model.name}, ${ROWS} rows, ${ROUNDS} alternating rounds, ${THREADS} threads`);
console.log('batch  bare session.run  harness (reported)  overhead');
for (const batchSize of BATCH_SIZES) {
  const batches = await batchesOf(batchSize, (rows) => model.prepareBatch(rows, columns));
  const feeds = batches.map((b) => Object.fromEntries(Object.entries(b).map(([k, t]) => [k, new ort.Tensor(t.dtype, t.data, t.dims)])));
  const bareMeans: number[] = [];
  const harnessMeans: number[] = [];
  // One full pass per round, no parity: the same work the bare loop does.
  const bench = new Benchmark({ batchSizes: [batchSize], limit: ROWS, warmupBatches: 2, stop: { minTimeMs: 0, minBatches: 1 }, parity: { reference: null } });
  for (let round = 0; round < ROUNDS; round++) {
    for (let w = 0; w < 2; w++) await bare.run(feeds[0] as ort.InferenceSession.FeedsType);
    let total = 0;
    for (const f of feeds) {
      const t0 = performance.now();
      await bare.run(f as ort.InferenceSession.FeedsType);
      total += performance.now() - t0;
    }
    bareMeans.push(total / feeds.length);
    const [cell] = await bench.execute(session, { name: 'onnx-cpu', model });
    if (cell?.state !== 'completed') throw new Error(`harness cell did not complete: ${JSON.stringify(cell)}`);
    harnessMeans.push(cell.latency.mean);
  }
  const b = median(bareMeans);
  const h = median(harnessMeans);
  const pct = ((h - b) / b) * 100;
  console.log(`${String(batchSize).padStart(5)}  ${b.toFixed(4).padStart(12)} ms  ${h.toFixed(4).padStart(15)} ms  ${pct >= 0 ? '+' : ''}${pct.toFixed(2)}%`);
}
console.log('overhead = (median harness mean − median bare mean) / median bare mean; target ≤ 2%');
await session.dispose();
await bare.release();
