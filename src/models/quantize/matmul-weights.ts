/**
 * The linear layers of an exported graph, in every form Hugging Face exports
 * write them: `MatMul(x, W)` with the weight as B (torch.onnx folds
 * `x @ W.T` into a transposed initializer), `MatMul(W, x)` with the weight as
 * A, and `Gemm(x, W, b)` (2-D inputs such as the pooler and classifier head,
 * usually `transB=1`). A weight may be shared by several layers (ALBERT
 * shares every layer's); the writers quantize it once and keep the float
 * original only while something else still reads it.
 */
import type { GraphIndex } from './graph-index.js';
import { dimsOf, floatValues, type AttributeProto, type NodeProto } from '../../core/onnx/onnx-file.js';

/** One linear layer with a constant weight. */
export interface LinearOp {
  readonly node: NodeProto;
  /** `matmul`: weight is B; `matmul-a`: weight is A; `gemm`: Gemm(x, W[, bias]). */
  readonly kind: 'matmul' | 'matmul-a' | 'gemm';
  /** The input that varies at run time. */
  readonly activation: string;
  /** Initializer name of the weight. */
  readonly weight: string;
  /** Gemm with transB=1: the weight is stored [N, K]. */
  readonly transB: boolean;
  /** Gemm's C input, or null. */
  readonly bias: string | null;
  /** Rows and columns of the weight as the product uses it: [K, N] for B-side, [M, K] for A-side. */
  readonly rows: number;
  readonly cols: number;
}

function attr(n: NodeProto, name: string): AttributeProto | undefined {
  return (n.attribute ?? []).find((a) => a.name === name);
}

function attrNumber(n: NodeProto, name: string, fallback: number): number {
  const a = attr(n, name);
  if (!a) return fallback;
  return a.type === 1 ? Number(a.f) : Number(a.i);
}

/** Every linear layer of the graph whose weight is a 2-D float32 initializer, in graph order. */
export function linearOps(index: GraphIndex): LinearOp[] {
  const ops: LinearOp[] = [];
  for (const n of index.nodes) {
    const [a = '', b = '', c = ''] = n.input ?? [];
    if ((n.domain ?? '') !== '') continue;
    if (n.opType === 'MatMul') {
      const wb = index.floatMatrix(b);
      const wa = index.floatMatrix(a);
      if (wb && !index.initializers.has(a)) {
        const [rows = 0, cols = 0] = dimsOf(wb);
        ops.push({ node: n, kind: 'matmul', activation: a, weight: b, transB: false, bias: null, rows, cols });
      } else if (wa && !index.initializers.has(b)) {
        const [rows = 0, cols = 0] = dimsOf(wa);
        ops.push({ node: n, kind: 'matmul-a', activation: b, weight: a, transB: false, bias: null, rows, cols });
      }
    } else if (n.opType === 'Gemm') {
      const w = index.floatMatrix(b);
      const simple = attrNumber(n, 'alpha', 1) === 1 && attrNumber(n, 'transA', 0) === 0 && (c === '' || attrNumber(n, 'beta', 1) === 1);
      if (w && simple && !index.initializers.has(a)) {
        const transB = attrNumber(n, 'transB', 0) === 1;
        const [d0 = 0, d1 = 0] = dimsOf(w);
        ops.push({ node: n, kind: 'gemm', activation: a, weight: b, transB, bias: c === '' ? null : c, rows: transB ? d1 : d0, cols: transB ? d0 : d1 });
      }
    }
  }
  return ops;
}

/** Row-major transpose of a [rows, cols] matrix. */
export function transpose(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    for (let c = 0; c < cols; c++) out[c * rows + r] = values[base + c] as number;
  }
  return out;
}

/** The weight of a layer as the product uses it: [K, N] for B-side and Gemm (transposed back when transB), [M, K] for A-side. */
export function weightMatrix(index: GraphIndex, op: LinearOp, dir: string): Float32Array {
  const t = index.initializers.get(op.weight);
  if (!t) throw new Error(`weight ${op.weight} is not an initializer`);
  const values = floatValues(t, dir);
  return op.transB ? transpose(values, op.cols, op.rows) : values;
}

/** Short text of the layers found, for a variant's method line: `MatMul ×72, Gemm ×2`. */
export function describeLinearOps(ops: readonly LinearOp[]): string {
  const counts = new Map<string, number>();
  for (const op of ops) {
    const key = op.kind === 'gemm' ? 'Gemm' : op.kind === 'matmul-a' ? 'MatMul (weight as A)' : 'MatMul';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}
