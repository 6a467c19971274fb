/**
 * `npm run bench:tfjs-node`: where tfjs-node's time goes on the default
 * model. The translated graph runs as libtensorflow eager ops, one
 * TFE_Execute each, so at small batches the count of ops and the cost of
 * one dispatch explain most of a forward. Printed per batch size:
 *
 * - TF ops/forward: calls into the binding's executeOp during one forward
 *   (what libtensorflow executes; tfjs kernels that only wrap others, and
 *   inferbench's JS kernels, are not counted), and tensors uploaded to it;
 * - ms/batch for tfjs-node, tfjs-wasm and onnx-cpu, all on one thread,
 *   median over alternating rounds (the machine is shared and noisy), with
 *   the process CPU ms per batch beside it: on a loaded machine that is the
 *   steadier measure of the work done;
 * - ms/batch ÷ ops: the effective cost of one op in a forward.
 *
 * And once: µs for one small eager op (tf.add of two [1, 16, 64] tensors,
 * dispose included) through tfjs-core, the dispatch floor.
 *
 * Needs tfjs-node (`npm run setup:tfjs-node` builds it offline).
 * BENCH_ROWS (default 128) rows, BENCH_ROUNDS (5), BENCH_BATCH_SIZES (1,32).
 */
import { availableParallelism, loadavg } from 'node:os';
import * as tf from '@tensorflow/tfjs-core';
import { createOnnxNodeEngine } from '../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../engines/tfjs/tfjs-engine.js';
import { defaultClassifier, openDataset, resolveColumns, type EngineSession, type TensorMap } from '../src/index.js';
import { median, pass, type PassTime } from './bench-passes.js';

const ROWS = Number(process.env['BENCH_ROWS'] ?? 128);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const BATCH_SIZES = (process.env['BENCH_BATCH_SIZES'] ?? '1,32').split(',').map(Number);

/** The part of tfjs-node's binding that the counts wrap. */
interface Binding {
  executeOp(...args: unknown[]): unknown;
  createTensor(...args: unknown[]): unknown;
}

/**
 * TF ops executed and tensors uploaded during one forward of `batch`. The
 * binding's functions are read-only properties, so for that forward the
 * backend gets a copy of the binding whose two functions count their calls.
 */
async function countOps(session: EngineSession, batch: TensorMap): Promise<{ ops: number; uploads: number }> {
  await session.run(batch); // folds the shape-only nodes for these dims first
  const backend = tf.findBackend('tensorflow') as unknown as { binding: Binding };
  const binding = backend.binding;
  let ops = 0;
  let uploads = 0;
  // Its dtype constants are not enumerable, so they are copied by name.
  const counting = Object.fromEntries(Object.getOwnPropertyNames(binding).map((k) => [k, (binding as unknown as Record<string, unknown>)[k]]));
  counting['executeOp'] = (...args: unknown[]) => (ops++, binding.executeOp(...args));
  counting['createTensor'] = (...args: unknown[]) => (uploads++, binding.createTensor(...args));
  backend.binding = counting as unknown as Binding;
  try {
    await session.run(batch);
  } finally {
    backend.binding = binding;
  }
  return { ops, uploads };
}

/** Median µs of one tf.add of two [1, 16, 64] tensors on the tensorflow backend, dispose included. */
async function microsPerOp(): Promise<number> {
  const previous = tf.getBackend();
  await tf.setBackend('tensorflow');
  const a = tf.ones([1, 16, 64]);
  const b = tf.ones([1, 16, 64]);
  const reps: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) tf.add(a, b).dispose();
    reps.push(((performance.now() - t0) / 1000) * 1000);
  }
  a.dispose();
  b.dispose();
  await tf.setBackend(previous);
  return median(reps);
}

const model = await defaultClassifier();
const columns = resolveColumns(await (await openDataset()).columns());
// tfjs-node first: its import sizes libtensorflow's thread pools, to 1 thread here.
const node = await createTfjsEngine('node').open(model.onnxPath(), { threads: 1, precision: 'fp32' });
const wasm = await createTfjsEngine('wasm').open(model.onnxPath(), { threads: null, precision: 'fp32' });
const onnx = await createOnnxNodeEngine('cpu').open(model.onnxPath(), { threads: 1, precision: 'fp32' });
const d = node.describe();
console.log(`bench:tfjs-node — ${model.name}, ${ROWS} rows, ${ROUNDS} alternating rounds, 1 thread each; medians`);
console.log(`tfjs-node ${d.versions['@tensorflow/tfjs-node']} on libtensorflow ${d.versions['libtensorflow'] ?? '?'}; load average ${loadavg()[0]?.toFixed(2)} on ${availableParallelism()} cores`);
console.log(`one eager op (tf.add [1,16,64], dispose included): ${(await microsPerOp()).toFixed(1)} µs`);
console.log('batch   TF ops/forward   uploads   tfjs-node ms/batch (CPU ms)   µs/op in forward   tfjs-wasm ms/batch (CPU)   onnx-cpu ms/batch (CPU)');
for (const batchSize of BATCH_SIZES) {
  const batches: TensorMap[] = [];
  for await (const rows of (await openDataset()).take(ROWS).batches(batchSize)) batches.push(model.prepareBatch(rows, columns));
  const { ops, uploads } = await countOps(node, batches[0] as TensorMap);
  const times: Record<'node' | 'wasm' | 'onnx', PassTime[]> = { node: [], wasm: [], onnx: [] };
  for (let round = 0; round < ROUNDS; round++) {
    times.node.push(await pass(node, batches));
    times.wasm.push(await pass(wasm, batches));
    times.onnx.push(await pass(onnx, batches));
  }
  const cell = (t: readonly PassTime[], width: number): string =>
    `${median(t.map((x) => x.wall)).toFixed(2)} (${median(t.map((x) => x.cpu)).toFixed(2)})`.padStart(width);
  const ms = median(times.node.map((x) => x.wall));
  console.log(
    `${String(batchSize).padStart(5)}   ${String(ops).padStart(14)}   ${String(uploads).padStart(7)}   ${cell(times.node, 27)}   ${((ms * 1000) / ops).toFixed(1).padStart(16)}` +
      `   ${cell(times.wasm, 24)}   ${cell(times.onnx, 23)}`,
  );
}
for (const s of [node, wasm, onnx]) await s.dispose();
