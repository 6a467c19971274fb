/**
 * `npm run bench:stability`: runs the same cell (onnx-cpu, embedded default
 * model, batch 8, default stop rule) five times, each with a fresh session,
 * and prints the coefficient of variation of the five means. Target ≤ 3% on
 * an idle machine; the load average is printed so a busy machine shows.
 */
import { loadavg } from 'node:os';
import { Benchmark } from '../src/runs/benchmark.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { computeStatistics } from '../src/core/statistics.js';

const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 5);
const BATCH = 8;

const model = await defaultClassifier();
console.log(`bench:stability — onnx-cpu, ${model.name}, batch ${BATCH}, ${REPEATS} repeats, default stop rule (≥ 2 s and ≥ 20 batches after a full pass)`);
console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const means: number[] = [];
for (let i = 0; i < REPEATS; i++) {
  const bench = new Benchmark({ batchSizes: [BATCH], parity: { reference: null } });
  const [cell] = await bench.run(model, ['onnx-cpu']);
  if (cell?.state !== 'completed') throw new Error(`cell did not complete: ${JSON.stringify(cell)}`);
  means.push(cell.latency.mean);
  console.log(
    `  run ${i + 1}: mean ${cell.latency.mean.toFixed(3)} ms/batch over ${cell.latency.count} batches, ` +
      `95% CI ±${cell.latency.ci95?.halfWidth.toFixed(3)} ms, CV ${(cell.latency.cv * 100).toFixed(1)}%, ${cell.verdict?.status}`,
  );
}
const s = computeStatistics(means);
console.log(`CV of the ${REPEATS} means: ${(s.cv * 100).toFixed(2)}% (target ≤ 3%); means ${s.min.toFixed(3)} … ${s.max.toFixed(3)} ms`);
console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
