/**
 * Dynamic 8-bit quantization in the form `onnxruntime.quantization.
 * quantize_dynamic` writes (IntegerOps mode, opset ≥ 11), what transformers.js
 * ships as `model_quantized.onnx`:
 *
 * - each MatMul by a constant becomes DynamicQuantizeLinear (the activation,
 *   uint8, its range measured per call) → MatMulInteger → Cast → Mul by the
 *   product of the two scales, with the weight quantized per output column;
 *   one DynamicQuantizeLinear serves every layer reading the same activation;
 * - a Gemm with a constant weight is first rewritten as MatMul + Add, as
 *   quantize_dynamic does (a weight shared with another node is transposed
 *   into a copy rather than in place, where onnxruntime would change it for
 *   both);
 * - each Gather from a float table (the embeddings) reads a uint8 table and
 *   its result is dequantized where a float consumer needs it;
 * - a MatMul whose constant is the A input (quantize_dynamic leaves those in
 *   fp32) gets a per-tensor 8-bit constant, since MatMulInteger takes one
 *   zero point for A.
 *
 * The arithmetic is quant-math.ts's, equal to onnxruntime's to the bit.
 */
import type { GraphIndex } from './graph-index.js';
import { linearOps, transpose, weightMatrix, type LinearOp } from './matmul-weights.js';
import { DT, defaultOpset, dimsOf, floatTensor, floatValues, intAttr, node, rawTensor, type NodeProto, type TensorProto } from '../../core/onnx/onnx-file.js';
import { quantizeColumns, quantizeTensor, zeroPointBytes, type Int8Kind } from './quant-math.js';

/** A value in 8-bit form: its quantized tensor, scale and zero point names. */
export interface Quantized {
  readonly q: string;
  readonly scale: string;
  readonly zeroPoint: string;
}

/** Adds an initializer under a fresh name built from `name`; returns that name. */
export type AddConstant = (name: string, dataType: number, dims: number[], bytes: Uint8Array) => string;

/** An embedding table in quantize_dynamic's form: uint8, per tensor, asymmetric (it quantizes tables as activations). */
export function quantizeTable(table: TensorProto, dir: string, constant: AddConstant): Quantized {
  const t = quantizeTensor(floatValues(table, dir), 'uint8');
  return {
    q: constant(`${table.name}_quantized`, DT.UINT8, dimsOf(table), t.q as Uint8Array),
    scale: constant(`${table.name}_scale`, DT.FLOAT, [], new Uint8Array(Float32Array.of(t.params.scale).buffer)),
    zeroPoint: constant(`${table.name}_zero_point`, DT.UINT8, [], Uint8Array.of(t.params.zeroPoint)),
  };
}

/** The float table a default-domain Gather reads, when it is an initializer. */
export function gatherTable(index: GraphIndex, n: NodeProto): TensorProto | undefined {
  const table = n.opType === 'Gather' && (n.domain ?? '') === '' ? index.initializers.get(n.input?.[0] ?? '') : undefined;
  return table && table.dataType === DT.FLOAT ? table : undefined;
}

export interface DynamicInt8Options {
  /** Weight encoding: `uint8` (asymmetric, what q8 and uint8 write) or `int8` (symmetric). */
  readonly weights: Int8Kind;
  /** Folder of the source model, for tensors kept as external data. */
  readonly dir: string;
}

/** Rewrites each eligible Gemm as MatMul (+ Add), in place, as quantize_dynamic does; returns how many. */
export function gemmToMatMul(index: GraphIndex, dir: string): number {
  const gemms = linearOps(index).filter((op) => op.kind === 'gemm');
  const replaced = new Map<NodeProto, NodeProto[]>();
  for (const op of gemms) {
    let weight = op.weight;
    if (op.transB) {
      const t = index.initializers.get(op.weight) as TensorProto;
      const kn = transpose(floatValues(t, dir), op.cols, op.rows);
      weight = index.freshName(`${op.weight}_transposed`);
      index.addInitializers([floatTensor(weight, [op.rows, op.cols], kn)]);
    }
    const out = op.node.output?.[0] ?? '';
    const name = op.node.name || index.freshName('Gemm');
    const matmulOut = op.bias ? index.freshName(`${out}_MatMul`) : out;
    const nodes = [node('MatMul', index.freshName(`${name}_MatMul`), [op.activation, weight], [matmulOut])];
    if (op.bias) nodes.push(node('Add', index.freshName(`${name}_Add`), [matmulOut, op.bias], [out]));
    replaced.set(op.node, nodes);
  }
  index.graph.node = index.nodes.flatMap((n) => replaced.get(n) ?? [n]);
  return gemms.length;
}

/**
 * Rewrites the graph in place; returns the layers quantized (0 means there
 * was nothing to quantize and the graph is unchanged but for Gemm → MatMul).
 */
export function quantizeDynamicInt8(index: GraphIndex, options: DynamicInt8Options): { layers: LinearOp[]; gathers: number } {
  const opset = defaultOpset(index.model);
  if (opset < 11) throw new Error(`dynamic quantization needs opset 11 or later (DynamicQuantizeLinear); this graph is opset ${opset}`);
  const { dir, weights: kind } = options;
  gemmToMatMul(index, dir);
  const layers = linearOps(index).filter((op) => op.kind !== 'gemm');
  const byNode = new Map(layers.map((op) => [op.node, op]));
  const added: TensorProto[] = [];
  const inits = new Map<string, Quantized>();
  const values = new Map<string, Quantized>();
  /** Values whose float form no longer exists (a Gather now yields uint8): consumers need a DequantizeLinear. */
  const floatGone = new Set<string>();
  const dequantized = new Set<string>();
  const nodes: NodeProto[] = [];
  let gathers = 0;

  const constant = (name: string, dataType: number, dims: number[], bytes: Uint8Array): string => {
    const fresh = index.freshName(name);
    added.push(rawTensor(fresh, dataType, dims, bytes));
    return fresh;
  };
  const weightQuantized = (op: LinearOp): Quantized => {
    const known = inits.get(op.weight);
    if (known) return known;
    const values32 = weightMatrix(index, op, dir);
    const perColumn = op.kind === 'matmul';
    // A constant in A's place is uint8 whatever the weight type: onnxruntime's fused integer kernels take only uint8 A.
    const k: Int8Kind = perColumn ? kind : 'uint8';
    const { q, scales, zeroPoints } = perColumn ? quantizeColumns(values32, op.rows, op.cols, k) : (() => {
      const t = quantizeTensor(values32, k);
      return { q: t.q, scales: Float32Array.of(t.params.scale), zeroPoints: Int32Array.of(t.params.zeroPoint) };
    })();
    const zpType = k === 'int8' ? DT.INT8 : DT.UINT8;
    const shape = perColumn ? [op.cols] : [];
    const made = {
      q: constant(`${op.weight}_quantized`, zpType, [op.rows, op.cols], new Uint8Array(q.buffer, q.byteOffset, q.byteLength)),
      scale: constant(`${op.weight}_scale`, DT.FLOAT, shape, new Uint8Array(scales.buffer)),
      zeroPoint: constant(`${op.weight}_zero_point`, zpType, shape, zeroPointBytes(zeroPoints, k)),
    };
    inits.set(op.weight, made);
    return made;
  };
  const activationQuantized = (name: string): Quantized => {
    const known = values.get(name);
    if (known) return known;
    const made = { q: index.freshName(`${name}_quantized`), scale: index.freshName(`${name}_scale`), zeroPoint: index.freshName(`${name}_zero_point`) };
    nodes.push(node('DynamicQuantizeLinear', index.freshName(`${name}_QuantizeLinear`), [name], [made.q, made.scale, made.zeroPoint]));
    values.set(name, made);
    return made;
  };
  const dequantizeInputs = (n: NodeProto): void => {
    for (const input of n.input ?? []) {
      const q = values.get(input);
      if (!q || !floatGone.has(input) || dequantized.has(input)) continue;
      nodes.push(node('DequantizeLinear', index.freshName(`${input}_DequantizeLinear`), [q.q, q.scale, q.zeroPoint], [input]));
      dequantized.add(input);
    }
  };

  for (const n of index.nodes) {
    const op = byNode.get(n);
    if (op) {
      const w = weightQuantized(op);
      const x = activationQuantized(op.activation);
      const [a, b] = op.kind === 'matmul' ? [x, w] : [w, x];
      const base = n.name || index.freshName('MatMul');
      const out = n.output?.[0] ?? '';
      const integer = index.freshName(`${out}_output_quantized`);
      const cast = index.freshName(`${integer}_cast_output`);
      const scales = index.freshName(`${base}_quant_scales_mul:0`);
      nodes.push(
        node('MatMulInteger', index.freshName(`${base}_quant`), [a.q, b.q, a.zeroPoint, b.zeroPoint], [integer]),
        node('Cast', index.freshName(`${integer}_cast`), [integer], [cast], [intAttr('to', DT.FLOAT)]),
        node('Mul', index.freshName(`${base}_quant_scales_mul`), [a.scale, b.scale], [scales]),
        node('Mul', index.freshName(`${base}_quant_output_scale_mul`), [cast, scales], [out]),
      );
      continue;
    }
    const table = gatherTable(index, n);
    if (table) {
      let q = inits.get(table.name ?? '');
      if (!q) {
        q = quantizeTable(table, dir, constant);
        inits.set(table.name ?? '', q);
      }
      dequantizeInputs(n);
      const out = n.output?.[0] ?? '';
      const qOut = index.freshName(`${out}_quantized`);
      nodes.push({ ...n, input: [q.q, ...(n.input ?? []).slice(1)], output: [qOut] });
      values.set(out, { q: qOut, scale: q.scale, zeroPoint: q.zeroPoint });
      floatGone.add(out);
      gathers++;
      continue;
    }
    const source = n.opType === 'Transpose' ? values.get(n.input?.[0] ?? '') : undefined;
    if (source && floatGone.has(n.input?.[0] ?? '')) {
      // Transposing 8-bit values needs no dequantization (onnxruntime's Direct8BitOp).
      const out = n.output?.[0] ?? '';
      const qOut = index.freshName(`${out}_quantized`);
      nodes.push({ ...n, input: [source.q], output: [qOut] });
      values.set(out, { q: qOut, scale: source.scale, zeroPoint: source.zeroPoint });
      floatGone.add(out);
      continue;
    }
    dequantizeInputs(n);
    nodes.push(n);
  }
  for (const o of index.graph.output ?? []) {
    const q = values.get(o.name ?? '');
    if (q && floatGone.has(o.name ?? '') && !dequantized.has(o.name ?? '')) nodes.push(node('DequantizeLinear', index.freshName(`${o.name}_DequantizeLinear`), [q.q, q.scale, q.zeroPoint], [o.name ?? '']));
  }
  index.graph.node = nodes;
  index.addInitializers(added);
  index.dropUnusedInitializers();
  return { layers, gathers };
}
