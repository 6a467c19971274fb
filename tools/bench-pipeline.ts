/**
 * `npm run bench:pipeline`: what the `@huggingface/transformers`
 * text-classification pipeline costs on top of its own ONNX session, for the
 * embedded default model. Per batch it times the whole pipeline call (raw
 * texts in, labels out: tokenize, forward, softmax + top-1) and, inside that
 * same call, the pipeline session's raw `run`, then prints both per batch at
 * batch 1 and 32 and the overhead percentage. A figure for users, not a target.
 */
import { availableParallelism } from 'node:os';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { attachTexts } from '../src/core/raw-texts.js';
import { createTransformersJsEngine } from '../engines/transformers-js/transformers-js-engine.js';
import { openDataset } from '../datasets/open-dataset.js';
import { resolveColumns } from '../datasets/columns.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 256);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BATCH_SIZES = [1, 32];
const THREADS = Number(process.env['BENCH_THREADS'] ?? availableParallelism());

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

async function textBatches(batchSize: number): Promise<string[][]> {
  const dataset = (await openDataset()).take(ROWS);
  const columns = resolveColumns(await dataset.columns());
  const out: string[][] = [];
  for await (const rows of dataset.batches(batchSize)) out.push(rows.map((r) => String(r[columns.text] ?? '')));
  return out;
}

const model = await defaultClassifier();
const session = await createTransformersJsEngine('cpu').open(model.onnxPath(), { threads: THREADS, precision: 'fp32' });
const d = session.describe();
console.log(`bench:pipeline — ${model.name}, ${ROWS} rows, ${ROUNDS} rounds, ${THREADS} threads, ${Object.entries(d.versions).map(([k, v]) => `${k}@${v}`).join(', ')}`);
console.log('batch  pipeline/batch  raw session.run/batch  overhead');
for (const batchSize of BATCH_SIZES) {
  const batches = (await textBatches(batchSize)).map((texts) => attachTexts({}, texts));
  const pipelineMeans: number[] = [];
  const forwardMeans: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let w = 0; w < 2; w++) await session.run(batches[0] ?? {});
    let pipeline = 0;
    let forward = 0;
    for (const inputs of batches) {
      const t0 = performance.now();
      await session.run(inputs);
      pipeline += performance.now() - t0;
      forward += session.innerForwardMs?.() ?? NaN;
    }
    pipelineMeans.push(pipeline / batches.length);
    forwardMeans.push(forward / batches.length);
  }
  const p = median(pipelineMeans);
  const f = median(forwardMeans);
  const pct = ((p - f) / f) * 100;
  console.log(`${String(batchSize).padStart(5)}  ${p.toFixed(3).padStart(11)} ms  ${f.toFixed(3).padStart(18)} ms  +${pct.toFixed(1)}%`);
}
console.log('overhead = (median pipeline mean − median raw forward mean) / median raw forward mean: tokenization, tensor wrapping, softmax and top-k');
await session.dispose();
