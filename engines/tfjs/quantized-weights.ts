import * as tf from '@tensorflow/tfjs-core';
import type { OnnxAttribute, OnnxDType, OnnxNode } from '../../src/core/onnx/onnx-decode.js';
import { FUSED_DOMAIN } from './graph-fusion.js';
import { dequantizeNBits } from './nbits-dequantize.js';
import { chunkSizes, exactChunk, QUANTIZED_OP_HANDLERS, ZERO_POINT_TYPE_ATTR } from './ops-quantized.js';
import { isHost, toNumbers, toTensor, type OpHandler, type Value } from './op-values.js';
import { NodeAttributes } from '../../src/core/onnx/onnx-graph.js';

/** What the open-time pass may read and add; the executor's constants stand behind it. */
export interface QuantizedPrepContext {
  readonly opset: number;
  /** A constant's value (initializer or Constant node), or undefined for a runtime value. */
  constant(name: string): Value | undefined;
  /** A constant's ONNX dtype, which the int32 tensor holding 8-bit data no longer says. */
  constantType(name: string): OnnxDType | undefined;
  /** Registers a new constant owned (and disposed) by the executor. */
  addConstant(name: string, value: Value): void;
  /** Graph outputs: a QuantizeLinear producing one is never dropped. */
  readonly graphOutputs: ReadonlySet<string>;
}

function intAttr(value: number): OnnxAttribute {
  return { type: 'int', value };
}

/** A constant's numbers on the host (a device constant is read back once, at open). */
function hostNumbers(v: Value): readonly number[] | ArrayLike<number> {
  return isHost(v) ? v.data : (v.dataSync() as ArrayLike<number>);
}

/**
 * Largest |x − zp| over a constant integer tensor and its scalar or
 * per-column zero point; 255 (the bound for any 8-bit pair) for zero-point
 * shapes it does not index.
 */
function maxCentered(x: Value, zp: Value | undefined, columns: number): number {
  const data = hostNumbers(x);
  const z = zp === undefined ? [0] : toNumbers(zp);
  const n = z.length;
  if (n !== 1 && n !== columns) return 255;
  let max = 0;
  for (let i = 0; i < data.length; i++) max = Math.max(max, Math.abs((data[i] as number) - (z[n === 1 ? 0 : i % n] as number)));
  return max;
}

/**
 * Rewrites quantized nodes once at open so runs do only the per-batch work:
 *
 * - DequantizeLinear of constants (QDQ weights and int32 biases) is evaluated
 *   now and becomes a float32 constant, so the MatMul after it fuses like an
 *   fp32 one; the values are exactly what the op computes per run.
 * - MatMulNBits with constant weights becomes MatMul by the weight
 *   dequantized to float32 (plus Add for a bias).
 * - MatMulInteger with a constant B becomes MatMulIntegerPrepared: B − zb is
 *   stored as float32 row chunks sized from the weight's real range, so a
 *   run centres only A.
 * - QuantizeLinear is told its zero point's ONNX type (uint8 or int8), which
 *   decides the saturation range.
 * - A QuantizeLinear → DequantizeLinear pair on an activation (QDQ graphs)
 *   with the same per-tensor scale and zero point becomes one QuantizeDequantize
 *   op (see fakeQuantPairs); a QuantizeLinear left without readers is dropped.
 * - The Cast → Mul after a prepared MatMulInteger is folded into it
 *   (foldCastAndScale), and a DynamicQuantizeLinear feeding only such
 *   matmuls hands them A − za as float32 (centerDynamicQuantization).
 *
 * Returns the new node list; nodes it does not touch pass through.
 */
export function prepareQuantizedNodes(nodes: readonly OnnxNode[], ctx: QuantizedPrepContext): OnnxNode[] {
  const out: OnnxNode[] = [];
  for (const node of fakeQuantPairs(nodes, ctx)) {
    const domain = node.domain === 'ai.onnx' ? '' : node.domain;
    if (domain === '' && node.opType === 'DequantizeLinear' && foldDequantize(node, ctx)) continue;
    if (domain === 'com.microsoft' && node.opType === 'MatMulNBits') {
      const replaced = dequantizedMatMul(node, ctx);
      if (replaced) { out.push(...replaced); continue; }
    }
    if (domain === '' && node.opType === 'MatMulInteger') {
      out.push(preparedMatMulInteger(node, ctx) ?? node);
      continue;
    }
    if (domain === '' && node.opType === 'QuantizeLinear') {
      const zp = node.inputs[2];
      const type = zp ? ctx.constantType(zp) : undefined;
      if (type) {
        const attributes = new Map(node.attributes);
        attributes.set(ZERO_POINT_TYPE_ATTR, { type: 'string', value: type });
        out.push({ ...node, attributes });
        continue;
      }
    }
    out.push(node);
  }
  return centerDynamicQuantization(foldCastAndScale(out, ctx.graphOutputs), ctx.graphOutputs);
}

/**
 * A DynamicQuantizeLinear whose uint8 output is read only as the A operand
 * of MatMulIntegerPrepared nodes that subtract this node's own zero point
 * (Q, K and V share one) becomes DynamicQuantizeCentered, which hands them
 * A − za as float32; they then skip their centring.
 */
function centerDynamicQuantization(nodes: readonly OnnxNode[], graphOutputs: ReadonlySet<string>): OnnxNode[] {
  const readers = new Map<string, OnnxNode[]>();
  for (const node of nodes) for (const n of node.inputs) if (n) readers.set(n, [...(readers.get(n) ?? []), node]);
  const replaced = new Map<OnnxNode, OnnxNode>();
  for (const node of nodes) {
    if (node.opType !== 'DynamicQuantizeLinear' || (node.domain !== '' && node.domain !== 'ai.onnx')) continue;
    const [q = '', , zp = ''] = node.outputs;
    const users = readers.get(q) ?? [];
    const fits = (u: OnnxNode): boolean =>
      u.opType === 'MatMulIntegerPrepared' && u.inputs[0] === q && u.inputs[1] === zp && !u.inputs.slice(2).includes(q);
    if (!q || !zp || users.length === 0 || graphOutputs.has(q) || !users.every(fits)) continue;
    const centred = `${q}::centered`;
    replaced.set(node, { ...node, name: `${node.name}+center`, opType: 'DynamicQuantizeCentered', domain: FUSED_DOMAIN, outputs: [centred, ...node.outputs.slice(1)] });
    for (const u of users) replaced.set(u, { ...(replaced.get(u) ?? u), inputs: [centred, '', ...u.inputs.slice(2)] });
  }
  return nodes.map((n) => replaced.get(n) ?? n);
}

/**
 * MatMulIntegerPrepared → Cast(to float) → Mul(·, scale), each value read
 * only by the next: the cast and the scaling move into the matmul node (its
 * third input), saving two kernels and an int32 round trip per layer. The
 * node takes the Mul's place, after the scale's producer.
 */
function foldCastAndScale(nodes: readonly OnnxNode[], graphOutputs: ReadonlySet<string>): OnnxNode[] {
  const readers = new Map<string, OnnxNode[]>();
  for (const node of nodes) for (const n of node.inputs) if (n) readers.set(n, [...(readers.get(n) ?? []), node]);
  const only = (name: string): OnnxNode | undefined => {
    const r = readers.get(name);
    return r?.length === 1 && !graphOutputs.has(name) ? r[0] : undefined;
  };
  const dropped = new Set<OnnxNode>();
  const replaced = new Map<OnnxNode, OnnxNode>();
  for (const node of nodes) {
    if (node.opType !== 'MatMulIntegerPrepared' || node.inputs[2] !== '') continue;
    const cast = only(node.outputs[0] ?? '');
    const to = cast?.attributes.get('to');
    if (!cast || cast.opType !== 'Cast' || cast.domain !== '' || to?.type !== 'int' || to.value !== 1) continue;
    const castOut = cast.outputs[0] ?? '';
    const mul = only(castOut);
    if (!mul || mul.opType !== 'Mul' || mul.domain !== '' || mul.inputs.length !== 2) continue;
    const scale = mul.inputs[0] === castOut ? mul.inputs[1] : mul.inputs[0];
    if (!scale || scale === castOut) continue;
    dropped.add(node).add(cast);
    replaced.set(mul, { ...node, name: `${node.name}+cast+scale`, inputs: node.inputs.map((n, i) => (i === 2 ? scale : n)), outputs: mul.outputs });
  }
  return nodes.flatMap((n) => (dropped.has(n) ? [] : [replaced.get(n) ?? n]));
}

/** A constant's single number, when it holds exactly one element. */
function scalarOf(ctx: QuantizedPrepContext, name: string): number | undefined {
  const v = name ? ctx.constant(name) : undefined;
  if (!v) return undefined;
  const data = hostNumbers(v);
  return data.length === 1 ? (data[0] as number) : undefined;
}

/** Saturation range of a zero point's ONNX type (uint8 when there is none, as the spec says). */
const RANGE_OF: Readonly<Record<string, readonly [number, number]>> = { uint8: [0, 255], int8: [-128, 127], uint16: [0, 65535], int16: [-32768, 32767] };

/**
 * Replaces DequantizeLinear(QuantizeLinear(x, s, zp), s, zp), per tensor, by
 * QuantizeDequantize(x, s) = clip(round(x / s), qmin − zp, qmax − zp) · s.
 * That is the same arithmetic: q − zp is exactly the clipped rounded integer,
 * so outputs are bit-identical, with four tfjs ops instead of nine and no
 * int32 round trip.
 */
function fakeQuantPairs(nodes: readonly OnnxNode[], ctx: QuantizedPrepContext): OnnxNode[] {
  const quantizers = new Map<string, { node: OnnxNode; scale: number; zp: number; lo: number; hi: number }>();
  for (const node of nodes) {
    if (node.opType !== 'QuantizeLinear' || (node.domain !== '' && node.domain !== 'ai.onnx') || !node.outputs[0]) continue;
    const [, scaleName = '', zpName = ''] = node.inputs;
    const scale = scalarOf(ctx, scaleName);
    const zp = zpName ? scalarOf(ctx, zpName) : 0;
    const range = RANGE_OF[zpName ? (ctx.constantType(zpName) ?? '') : 'uint8'];
    if (scale === undefined || zp === undefined || !range || new NodeAttributes(node.attributes).int('block_size', 0) > 0) continue;
    quantizers.set(node.outputs[0], { node, scale, zp, lo: range[0] - zp, hi: range[1] - zp });
  }
  if (quantizers.size === 0) return [...nodes];
  const replaced = new Map<OnnxNode, OnnxNode>();
  for (const node of nodes) {
    const q = node.opType === 'DequantizeLinear' ? quantizers.get(node.inputs[0] ?? '') : undefined;
    if (!q) continue;
    const [, scaleName = '', zpName = ''] = node.inputs;
    if (scalarOf(ctx, scaleName) !== q.scale || (zpName ? scalarOf(ctx, zpName) : 0) !== q.zp) continue;
    replaced.set(node, {
      name: `${q.node.name}+${node.name}`,
      opType: 'QuantizeDequantize',
      domain: FUSED_DOMAIN,
      inputs: [q.node.inputs[0] ?? '', scaleName],
      outputs: node.outputs,
      attributes: new Map([['lo', intAttr(q.lo)], ['hi', intAttr(q.hi)]]),
    });
  }
  const stillRead = new Set<string>();
  for (const node of nodes) if (!replaced.has(node)) for (const n of node.inputs) stillRead.add(n);
  return nodes.flatMap((node) => {
    const r = replaced.get(node);
    if (r) return [r];
    const q = node.opType === 'QuantizeLinear' ? quantizers.get(node.outputs[0] ?? '') : undefined;
    const out = node.outputs[0] ?? '';
    return q && !stillRead.has(out) && !ctx.graphOutputs.has(out) ? [] : [node];
  });
}

/** Evaluates a DequantizeLinear whose inputs are all constants and registers its output as a constant. */
function foldDequantize(node: OnnxNode, ctx: QuantizedPrepContext): boolean {
  const output = node.outputs[0];
  const ins = node.inputs.map((n) => (n ? ctx.constant(n) : undefined));
  if (!output || node.inputs.some((n, i) => n !== '' && ins[i] === undefined)) return false;
  const handler = QUANTIZED_OP_HANDLERS['DequantizeLinear'] as OpHandler;
  const value = tf.tidy(() => toTensor(handler(ins, new NodeAttributes(node.attributes), { node, opset: ctx.opset })[0] as Value));
  ctx.addConstant(output, value);
  return true;
}

/** MatMulNBits → MatMul by its dequantized [K, N] weight (and Add of its bias); undefined when the weight is not constant. */
function dequantizedMatMul(node: OnnxNode, ctx: QuantizedPrepContext): OnnxNode[] | undefined {
  const [a = '', bName = '', scalesName = '', zpName = '', gIdx = '', bias = ''] = node.inputs;
  const b = ctx.constant(bName);
  const scales = ctx.constant(scalesName);
  const zp = zpName ? ctx.constant(zpName) : undefined;
  if (!b || !scales || (zpName && !zp)) return undefined;
  if (gIdx) throw new Error(`MatMulNBits node ${node.name} has g_idx, which the tfjs translation does not support`);
  if (zpName && ctx.constantType(zpName) !== 'uint8') throw new Error(`MatMulNBits node ${node.name} has ${ctx.constantType(zpName)} zero points; only packed uint8 ones are supported`);
  const attrs = new NodeAttributes(node.attributes);
  const k = attrs.int('K', 0);
  const n = attrs.int('N', 0);
  const weight = dequantizeNBits({
    packed: hostNumbers(b),
    scales: hostNumbers(scales),
    zeroPoints: zp === undefined ? undefined : hostNumbers(zp),
    k,
    n,
    bits: attrs.int('bits', 4),
    blockSize: attrs.int('block_size', 0),
  });
  const wName = `${bName}::dequantized[K,N]`;
  if (!ctx.constant(wName)) ctx.addConstant(wName, tf.tensor2d(weight, [k, n], 'float32'));
  const y = node.outputs[0] ?? '';
  const matMul: OnnxNode = { name: node.name, opType: 'MatMul', domain: '', inputs: [a, wName], outputs: [bias ? `${y}::before_bias` : y], attributes: new Map() };
  if (!bias) return [matMul];
  return [matMul, { name: `${node.name}+bias`, opType: 'Add', domain: '', inputs: [`${y}::before_bias`, bias], outputs: [y], attributes: new Map() }];
}

/** MatMulInteger by a constant B (and constant zb) → MatMulIntegerPrepared with B − zb in exact row chunks. */
function preparedMatMulInteger(node: OnnxNode, ctx: QuantizedPrepContext): OnnxNode | undefined {
  const [a = '', bName = '', za = '', zbName = ''] = node.inputs;
  const b = ctx.constant(bName);
  const zb = zbName ? ctx.constant(zbName) : undefined;
  if (!b || (zbName && !zb)) return undefined;
  const bt = toTensor(b);
  if (bt.rank < 2) return undefined;
  const k = bt.shape[bt.rank - 2] ?? 1;
  // |A − za| ≤ 255 for any 8-bit A and zero point; B's bound is read off the weight.
  const sizes = chunkSizes(k, exactChunk(255, maxCentered(b, zb, bt.shape[bt.rank - 1] ?? 1)));
  const chunkNames = sizes.map((_, i) => `${bName}${zbName ? `-${zbName}` : ''}::float32-rows-${i}-of-${sizes.length}`);
  if (!ctx.constant(chunkNames[0] as string)) {
    const chunks = tf.tidy(() => {
      const zi = zb === undefined ? undefined : toTensor(zb);
      const centred = tf.cast(zi === undefined ? bt : tf.sub(bt, zi), 'float32');
      return sizes.length === 1 ? [centred] : tf.split(centred, sizes, bt.rank - 2);
    });
    chunks.forEach((c, i) => ctx.addConstant(chunkNames[i] as string, c));
  }
  return {
    name: node.name,
    opType: 'MatMulIntegerPrepared',
    domain: FUSED_DOMAIN,
    inputs: [a, za, '', ...chunkNames],
    outputs: node.outputs,
    attributes: new Map([['chunks', intAttr(sizes.length)]]),
  };
}

/**
 * What a result row should say about the quantized ops of a graph: how each
 * is computed and where that can differ from onnxruntime. Empty for graphs
 * without them.
 */
export function quantizedOpNotes(nodes: readonly OnnxNode[]): string[] {
  const ops = new Set(nodes.map((n) => n.opType));
  const notes: string[] = [];
  if (ops.has('MatMulInteger')) {
    notes.push('MatMulInteger exact: 8-bit operands as float32 in K chunks whose partial sums stay below 2^24, chunk sums added in int32');
  }
  if (ops.has('DynamicQuantizeLinear') || ops.has('QuantizeLinear')) {
    notes.push('quantization as ORT: float32 x / scale, round half to even, saturate');
  }
  if (ops.has('MatMulNBits')) {
    notes.push('MatMulNBits: 4-bit weights dequantized to fp32 at open ((q − zp) · scale), fp32 matmul; ORT sums in a different order');
  }
  if (ops.has('DequantizeLinear') && ops.has('QuantizeLinear')) {
    notes.push('QDQ graph run as written (float ops between Q/DQ pairs), not fused into integer kernels as ORT does');
  }
  return notes;
}
