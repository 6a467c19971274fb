/**
 * `npm run bench:stability`: runs the same cell (onnx-cpu, embedded default
 * model, batch 8) as five separate runs, each with the default rounds, stop
 * rule and isolation of `inferbench run`, and prints each run's mean with its
 * 95% CI across rounds. The check that matters for a re-run: how many of the
 * five intervals contain the median of the five means (target ≥ 4 of 5).
 * The load average is printed so a busy machine shows.
 */
import { loadavg } from 'node:os';
import { Benchmark } from '../src/runs/benchmark.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { computeStatistics } from '../src/core/statistics.js';
import { DEFAULT_ROUNDS } from '../src/core/stop-rule.js';

const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 5);
const BATCH = 8;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const model = await defaultClassifier();
console.log(`bench:stability — onnx-cpu, ${model.name}, batch ${BATCH}, ${REPEATS} separate runs, ${DEFAULT_ROUNDS} rounds each (isolated, default stop rule)`);
console.log(`load average before: ${load()}`);
const runs: { mean: number; low: number; high: number }[] = [];
for (let i = 0; i < REPEATS; i++) {
  const bench = new Benchmark({ batchSizes: [BATCH], parity: { reference: null }, isolate: true });
  const [cell] = await bench.run(model, ['onnx-cpu']);
  if (cell?.state !== 'completed' || !cell.betweenRounds) throw new Error(`cell did not complete: ${JSON.stringify(cell)?.slice(0, 400)}`);
  const b = cell.betweenRounds;
  const ci = b.ci95;
  runs.push({ mean: b.mean, low: ci?.low ?? b.mean, high: ci?.high ?? b.mean });
  console.log(
    `  run ${i + 1}: mean ${b.mean.toFixed(3)} ms/batch, 95% CI ${ci ? `${ci.low.toFixed(3)} … ${ci.high.toFixed(3)} (±${((ci.halfWidth / b.mean) * 100).toFixed(1)}%)` : 'n/a'}` +
      ` across ${b.rounds} rounds (means ${b.means.map((m) => m.toFixed(3)).join(', ')}), ${cell.verdict?.status}; load ${load()}`,
  );
}
const s = computeStatistics(runs.map((r) => r.mean));
const median = s.p50;
const containing = runs.filter((r) => r.low <= median && median <= r.high).length;
console.log(`median of the ${REPEATS} means: ${median.toFixed(3)} ms; spread of the means ${s.min.toFixed(3)} … ${s.max.toFixed(3)} ms (CV ${(s.cv * 100).toFixed(1)}%)`);
console.log(`intervals containing the median: ${containing} of ${REPEATS} (target ≥ ${Math.ceil(REPEATS * 0.8)})`);
console.log(`load average after: ${load()}`);
