/**
 * `npm run bench:tfjs-import`: the ONNX graph translated to tfjs ops, on
 * tfjs-wasm, against onnxruntime-web (onnx-wasm) on the same model file and
 * the same tokenized batches, both single-threaded. Rounds alternate the two
 * engines so drift in machine speed (the machine is shared) hits both alike;
 * the figure is the median over rounds of each round's mean ms per batch.
 * Both engines run synchronously on the main thread, so the process CPU
 * time of a pass (user + system) is printed too: on a loaded machine it
 * measures the work each engine does without the time spent waiting for a
 * core, and its ratio is the steadier of the two.
 *
 * Models: the embedded default (tiny BERT) and, unless BENCH_MODELS says
 * otherwise, the committed bert HF fixture. BENCH_MODELS=default,hf:roberta
 * picks others. Target: tfjs-wasm within 2× of onnx-wasm.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { TextClassification } from '../src/models/text-classification.js';
import { packageRoot } from '../src/core/package-info.js';
import { createTfjsEngine } from '../engines/tfjs/tfjs-engine.js';
import { createOnnxWasmEngine } from '../engines/onnx/onnx-wasm-engine.js';
import { openDataset } from '../datasets/open-dataset.js';
import { resolveColumns } from '../datasets/columns.js';
import type { EngineSession } from '../src/core/engine-session.js';
import type { TensorMap } from '../src/core/tensor.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 128);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BATCH_SIZES = (process.env['BENCH_BATCH_SIZES'] ?? '1,32').split(',').map(Number);
const MODELS = (process.env['BENCH_MODELS'] ?? 'default,hf:bert').split(',');
const TARGET = 2;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function modelFor(spec: string): Promise<TextClassification> {
  if (spec === 'default') return defaultClassifier();
  if (spec.startsWith('hf:')) return new TextClassification(join(packageRoot(), 'test', 'data', 'hf', spec.slice(3)), { name: spec }).init();
  return new TextClassification(spec).init();
}

interface PassTime {
  /** Mean wall-clock ms per batch. */
  readonly wall: number;
  /** Mean process CPU ms (user + system) per batch. */
  readonly cpu: number;
}

/** One pass over `batches`, after `warmup` untimed runs of the first batch. */
async function pass(session: EngineSession, batches: readonly TensorMap[], warmup = 2): Promise<PassTime> {
  for (let i = 0; i < warmup; i++) await session.run(batches[0] as TensorMap);
  let wall = 0;
  let cpu = 0;
  for (const b of batches) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await session.run(b);
    wall += performance.now() - t0;
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
  }
  return { wall: wall / batches.length, cpu: cpu / batches.length };
}

const columns = resolveColumns(await (await openDataset()).columns());
const [load1] = loadavg();
console.log(`bench:tfjs-import — tfjs-wasm (translated graph) vs onnx-wasm, 1 thread each, ${ROWS} rows, ${ROUNDS} alternating rounds`);
console.log(`load average at start: ${load1?.toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores`);
console.log('model                       batch   tfjs-wasm ms/batch   onnx-wasm ms/batch   ratio   (CPU ms/batch: tfjs-wasm  onnx-wasm  ratio)');
const ratios: number[] = [];
const cpuRatios: number[] = [];
for (const spec of MODELS) {
  const model = await modelFor(spec);
  const tfjs = await createTfjsEngine('wasm').open(model.onnxPath(), { threads: null, precision: 'fp32' });
  const onnx = await createOnnxWasmEngine().open(model.onnxPath(), { threads: 1, precision: 'fp32' });
  for (const batchSize of BATCH_SIZES) {
    const batches: TensorMap[] = [];
    for await (const rows of (await openDataset()).take(ROWS).batches(batchSize)) batches.push(model.prepareBatch(rows, columns));
    const t: PassTime[] = [];
    const o: PassTime[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      t.push(await pass(tfjs, batches));
      o.push(await pass(onnx, batches));
    }
    const tm = median(t.map((x) => x.wall));
    const om = median(o.map((x) => x.wall));
    const tc = median(t.map((x) => x.cpu));
    const oc = median(o.map((x) => x.cpu));
    ratios.push(tm / om);
    cpuRatios.push(tc / oc);
    console.log(
      `${model.name.slice(0, 26).padEnd(26)}  ${String(batchSize).padStart(5)}   ${tm.toFixed(3).padStart(18)}   ${om.toFixed(3).padStart(18)}   ${(tm / om).toFixed(2).padStart(5)}×` +
        `   ${tc.toFixed(3).padStart(21)}  ${oc.toFixed(3).padStart(9)}  ${(tc / oc).toFixed(2).padStart(5)}×`,
    );
  }
  await tfjs.dispose();
  await onnx.dispose();
}
const [load2] = loadavg();
console.log(`load average at end: ${load2?.toFixed(2)}`);
const verdict = (xs: number[]): string => `worst ${Math.max(...xs).toFixed(2)}× ${Math.max(...xs) <= TARGET ? '(met)' : '(NOT met)'}`;
console.log(`ratio = median tfjs-wasm / median onnx-wasm; target ≤ ${TARGET}× — wall-clock ${verdict(ratios)}, CPU time ${verdict(cpuRatios)}`);
