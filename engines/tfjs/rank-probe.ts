/**
 * The rank of every value of an ONNX graph, measured rather than inferred:
 * the graph is run once by inferbench's tfjs translator (its unfused op
 * handlers, on tfjs's plain-JS CPU backend) on small feeds whose dynamic
 * dims get distinct sizes, and each value's dims are read. A TensorFlow
 * lowering needs ranks where ONNX counts axes from the end (Unsqueeze,
 * Slice, Softmax, MatMul) and the file carries no value_info; ONNX's ops
 * fix ranks from their inputs' ranks, so one run gives them for any
 * batch and sequence length.
 *
 * It lives with the translator it runs and is the one module of this engine
 * the TensorFlow exporter (src/models/tf-export) imports; the graph types,
 * node order and attribute access they share are in src/core/onnx/.
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import type { OnnxModel, OnnxValueInfo } from '../../src/core/onnx/onnx-decode.js';
import { opHandlerFor } from './op-table.js';
import { dimsOf, isHost, valueFromOnnxTensor, type Value } from './op-values.js';
import { NodeAttributes, topologicalOrder } from '../../src/core/onnx/onnx-graph.js';
import { runStep } from './run-plan.js';

/** Sizes given to the graph's symbolic dims, in order of first appearance: small, distinct, and not 1 (a 1 could be squeezed or broadcast away). */
const PROBE_SIZES = [2, 3, 5, 7, 11, 13];

/**
 * One size per symbolic dim; `past + sequence` style sums (decoders with
 * past) are evaluated from their terms, and a `total_sequence_length` (the
 * name optimum and transformers.js give a decoder's mask length) is its past
 * length plus its sequence length, as those exporters mean it.
 */
function probeDims(inputs: readonly OnnxValueInfo[]): Map<string, number[]> {
  const symbols = new Map<string, number>();
  const names = inputs.flatMap((v) => (v.dims ?? []).filter((d): d is string => typeof d === 'string'));
  const past = names.find((n) => /past/i.test(n) && !n.includes('+'));
  const sequence = names.find((n) => /seq/i.test(n) && !/past|total/i.test(n) && !n.includes('+'));
  const sizeOf = (symbol: string): number => {
    const terms = symbol.split('+').map((s) => s.trim());
    if (terms.length > 1) return terms.reduce((sum, t) => sum + (/^\d+$/.test(t) ? Number(t) : sizeOf(t)), 0);
    if (/total/i.test(symbol) && sequence !== undefined) return (past !== undefined ? sizeOf(past) : 0) + sizeOf(sequence);
    let n = symbols.get(symbol);
    if (n === undefined) {
      n = PROBE_SIZES[symbols.size % PROBE_SIZES.length] as number;
      symbols.set(symbol, n);
    }
    return n;
  };
  return new Map(inputs.map((v, i) => [v.name, (v.dims ?? []).map((d, axis) => (typeof d === 'number' ? d : sizeOf(d ?? `${v.name}:${axis}:${i}`)))]));
}

/** A feed of zeros: values do not change any supported op's output rank. */
function zeros(v: OnnxValueInfo, dims: readonly number[]): tf.Tensor {
  const dtype = v.dtype === 'bool' ? 'bool' : v.dtype.startsWith('float') || v.dtype === 'bfloat16' ? 'float32' : 'int32';
  return tf.zeros([...dims], dtype);
}

/** The probe could not run the graph; the message says on what and why. */
export class ProbeFailed extends Error {
  override readonly name = 'ProbeFailed';
}

/** What the probe run measured, by value name. */
export interface ProbeResult {
  readonly ranks: ReadonlyMap<string, number>;
  /** Small integer values the translator kept on the host (shape arithmetic), as they were on this run's dims. */
  readonly ints: ReadonlyMap<string, readonly number[]>;
}

/**
 * Runs `model` once on the CPU backend and returns each value's rank by
 * name (graph inputs, initializers and node outputs), and the small integer
 * values of its shape arithmetic. The caller's tfjs backend is restored
 * afterwards; every tensor made is disposed (tf.tidy).
 */
export async function probeRanks(model: OnnxModel): Promise<ProbeResult> {
  // Production mode only silences tfjs's console banner, as the tfjs engines do.
  tf.enableProdMode();
  const previous = tf.engine().backendName;
  if (previous !== 'cpu') {
    await tf.setBackend('cpu');
    await tf.ready();
  }
  const ranks = new Map<string, number>();
  const ints = new Map<string, readonly number[]>();
  try {
    tf.tidy(() => {
      const values = new Map<string, Value>();
      const dims = probeDims(model.inputs);
      for (const v of model.inputs) values.set(v.name, zeros(v, dims.get(v.name) ?? []));
      for (const [name, t] of model.initializers) values.set(name, valueFromOnnxTensor(t));
      for (const node of topologicalOrder(model)) {
        const handler = opHandlerFor(node.opType, node.domain);
        if (!handler) throw new ProbeFailed(`ONNX node ${node.name} (${node.opType}) has no translator handler to measure ranks with`);
        let outs: Value[];
        try {
          outs = runStep({ node, handler, attrs: new NodeAttributes(node.attributes), ctx: { node, opset: model.opset } }, (n) => values.get(n));
        } catch (err) {
          const fed = [...dims].map(([name, d]) => `${name} [${d.join(', ')}]`).join(', ');
          throw new ProbeFailed(`the graph did not run on the probe's feeds (${fed}; dims named alike are equal, other names independent): ${(err as Error).message}`);
        }
        node.outputs.forEach((o, i) => {
          const v = outs[i];
          if (o && v !== undefined) values.set(o, v);
        });
      }
      for (const [name, v] of values) {
        ranks.set(name, dimsOf(v).length);
        if (isHost(v) && v.dtype === 'int32') ints.set(name, v.data);
      }
    });
  } finally {
    if (previous && previous !== 'cpu') await tf.setBackend(previous);
  }
  return { ranks, ints };
}
