import * as tf from '@tensorflow/tfjs-core';
import { gelu, layerNormLastAxis } from './custom-kernels.js';
import { DataflowIndex, matchGeluErf, matchGeluTanh, matchLayerNorm, type Fusion, type FusionContext } from './fusion-patterns.js';
import type { OnnxAttribute, OnnxNode } from '../../src/core/onnx/onnx-decode.js';
import { req, toTensor, type OpHandler } from './op-values.js';
import { matMulTensors } from './ops-nn.js';

export type { FusionContext } from './fusion-patterns.js';

/** Suffix of the [1, K, N] copy of a 2-D weight that FusedMatMul nodes read (made by the executor at open). */
export const WEIGHT_3D_SUFFIX = '::[1,K,N]';

/** Domain of the nodes the fusion pass creates; no ONNX file can use it, so they never clash with real ops. */
export const FUSED_DOMAIN = 'ai.inferbench.fused';

function stringAttr(value: string): OnnxAttribute {
  return { type: 'string', value };
}

/** MatMul by a 2-D constant weight, then Add of a 1-D constant bias, then optionally Relu: one fused matmul. */
function matchLinear(g: DataflowIndex, ctx: FusionContext, mm: OnnxNode): Fusion | undefined {
  const [a, w] = mm.inputs as [string, string];
  const out = mm.outputs[0] as string;
  const wDims = ctx.constantDims(w);
  if (wDims?.length !== 2) return undefined;
  const add = g.single(out);
  const bias = add?.opType === 'Add' ? g.other(add, out) : undefined;
  const biasDims = bias !== undefined ? ctx.constantDims(bias) : undefined;
  if (!add || bias === undefined || biasDims?.length !== 1 || biasDims[0] !== wDims[1]) return undefined;
  const relu = g.single(add.outputs[0] as string);
  const last = relu?.opType === 'Relu' && relu.domain === '' ? relu : add;
  return {
    covered: last === add ? [mm, add] : [mm, add, last],
    node: {
      name: `${mm.name}+bias${last === add ? '' : '+relu'}`,
      opType: 'FusedMatMul',
      domain: FUSED_DOMAIN,
      inputs: [a, w, bias],
      outputs: [last.outputs[0] as string],
      attributes: new Map([['activation', stringAttr(last === add ? '' : 'relu')]]),
    },
  };
}

/**
 * Gemm (alpha = beta = 1, no transA) of a 2-D constant weight and an optional
 * 1-D bias: the classifier and pooler heads. As a FusedMatMul its weight is
 * stored pre-transposed, so transB (which sends tfjs-wasm off XNNPACK onto
 * its scalar loop) costs nothing at run time.
 */
function matchGemm(ctx: FusionContext, gemm: OnnxNode): Fusion | undefined {
  const num = (name: string, fallback: number): number => {
    const a = gemm.attributes.get(name);
    return a && (a.type === 'int' || a.type === 'float') ? a.value : fallback;
  };
  const [a, w, c] = gemm.inputs as [string, string, string | undefined];
  const wDims = ctx.constantDims(w);
  const transB = num('transB', 0) === 1;
  const n = wDims?.[transB ? 0 : 1];
  if (num('alpha', 1) !== 1 || num('beta', 1) !== 1 || num('transA', 0) !== 0 || wDims?.length !== 2) return undefined;
  if (c && !(ctx.constantDims(c)?.length === 1 && ctx.constantDims(c)?.[0] === n)) return undefined;
  return {
    covered: [gemm],
    node: {
      name: `${gemm.name}(gemm)`,
      opType: 'FusedMatMul',
      domain: FUSED_DOMAIN,
      inputs: c ? [a, w, c] : [a, w],
      outputs: [gemm.outputs[0] as string],
      attributes: new Map<string, OnnxAttribute>([['activation', stringAttr('')], ['transB', { type: 'int', value: transB ? 1 : 0 }]]),
    },
  };
}

/**
 * Rewrites patterns that cost tfjs many kernels, or a slow kernel, into one
 * fused node, before the executor plans the graph:
 *
 * - MatMul by a 2-D weight + Add of a 1-D bias (+ Relu), and Gemm heads: one
 *   _FusedMatMul kernel on XNNPACK's path;
 * - LayerNorm spelled out in 9 ops, and GELU in erf (5 ops) or tanh (8 ops)
 *   form: one kernel each (see custom-kernels.ts).
 *
 * (Reading attention's Kᵀ with transposeB instead of a Transpose does not
 * pay: tfjs-wasm runs every batched or transposed matmul through one scalar
 * loop, and transposeB was up to 50% slower there for head size 16.)
 *
 * A pattern's inner values must have no other reader, so nothing another
 * node needs disappears. Returns the new node list in a valid order (each
 * fused node takes the place of the last node it covers).
 */
export function fuseGraph(nodes: readonly OnnxNode[], ctx: FusionContext): OnnxNode[] {
  const g = new DataflowIndex(nodes, ctx);
  const claimed = new Set<OnnxNode>();
  const replaced = new Map<OnnxNode, OnnxNode>();
  const position = new Map(nodes.map((n, i) => [n, i]));
  const apply = (f: Fusion | undefined): void => {
    if (!f || f.covered.some((n) => claimed.has(n))) return;
    for (const n of f.covered) claimed.add(n);
    const last = f.covered.reduce((p, n) => ((position.get(n) ?? 0) > (position.get(p) ?? 0) ? n : p));
    replaced.set(last, f.node);
  };
  for (const n of nodes) {
    if (n.domain !== '') continue;
    if (n.opType === 'ReduceMean') apply(matchLayerNorm(g, ctx, n, FUSED_DOMAIN));
    else if (n.opType === 'Erf') apply(matchGeluErf(g, n, FUSED_DOMAIN));
    else if (n.opType === 'Tanh') apply(matchGeluTanh(g, n, FUSED_DOMAIN));
  }
  for (const n of nodes) {
    if (n.domain !== '' || claimed.has(n)) continue;
    if (n.opType === 'MatMul') apply(matchLinear(g, ctx, n));
    else if (n.opType === 'Gemm') apply(matchGemm(ctx, n));
  }
  return nodes.flatMap((n) => {
    const r = replaced.get(n);
    if (r) return [r];
    return claimed.has(n) ? [] : [n];
  });
}

/**
 * FusedMatMul(a, b, bias?): ONNX MatMul semantics plus bias and activation. A weight the executor stored as
 * [1, K, N] (see WEIGHT_3D_SUFFIX) goes straight to the _FusedMatMul kernel:
 * one reshape in, one out, instead of the six tf.fused.matMul and the
 * numpy-style wrapper spend.
 */
const fusedMatMul: OpHandler = (inputs, attrs) => {
  const bias = inputs[2];
  const w = toTensor(req(inputs, 1));
  const activation = attrs.string('activation', '') === 'relu' ? 'relu' : 'linear';
  if (w.rank === 3 && w.shape[0] === 1 && attrs.int('weight3d', 0) === 1) {
    const a = toTensor(req(inputs, 0));
    const k = a.shape[a.rank - 1] ?? 1;
    // Batch 1 activations are [1, S, K] already; a reshape is a kernel dispatch even when it changes nothing.
    // libtensorflow's BatchMatMulV2 broadcasts the weight's batch of 1, so on tfjs-node [B, S, K] goes in as it is
    // (each reshape there is an eager op plus an uploaded shape tensor).
    const rows = a.size / k;
    const a3 = a.rank === 3 && (a.shape[0] === 1 || tf.getBackend() === 'tensorflow') ? a : tf.reshape(a, [1, rows, k]);
    const kernelInputs = { a: a3, b: w, ...(bias !== undefined ? { bias: toTensor(bias) } : {}) } as unknown as tf.NamedTensorMap;
    const kernelAttrs = { transposeA: false, transposeB: false, activation, leakyreluAlpha: 0 } as unknown as tf.NamedAttrMap;
    const out = tf.engine().runKernel(tf._FusedMatMul, kernelInputs, kernelAttrs) as tf.Tensor;
    return [a3 === a ? out : tf.reshape(out, [...a.shape.slice(0, -1), w.shape[2] ?? 1])];
  }
  return [
    matMulTensors(toTensor(req(inputs, 0)), w, {
      ...(bias !== undefined ? { bias: toTensor(bias) } : {}),
      activation: attrs.string('activation', '') === 'relu' ? 'relu' : undefined,
    }),
  ];
};

/** LayerNorm over the last axis; a scale or bias that does not match it falls back to broadcasting tfjs ops, as ONNX would compute. */
const layerNorm: OpHandler = (inputs, attrs, ctx) => {
  const x = toTensor(req(inputs, 0));
  const gamma = toTensor(req(inputs, 1));
  const beta = toTensor(req(inputs, 2));
  const n = x.shape[x.rank - 1];
  const epsilon = attrs.float('epsilon', 1e-5);
  const eps = ctx.scalar?.(epsilon) ?? epsilon;
  if (gamma.size === n && beta.size === n && gamma.rank === 1 && beta.rank === 1) return [layerNormLastAxis(x, gamma, beta, epsilon, eps)];
  const mean = tf.mean(x, -1, true);
  const centered = tf.sub(x, mean);
  const std = tf.sqrt(tf.add(tf.mean(tf.square(centered), -1, true), eps));
  return [tf.add(tf.mul(tf.div(centered, std), gamma), beta)];
};

/** Handlers of the nodes fuseGraph creates. */
export const FUSED_OPS: ReadonlyMap<string, OpHandler> = new Map<string, OpHandler>([
  ['FusedMatMul', fusedMatMul],
  ['LayerNormLastAxis', layerNorm],
  ['Gelu', (inputs, attrs, ctx) => [gelu(toTensor(req(inputs, 0)), attrs.string('approximate', 'none') === 'tanh', ctx.scalar)]],
]);
