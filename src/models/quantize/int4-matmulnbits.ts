/**
 * 4-bit weight-only quantization in the form transformers.js ships as
 * `model_q4.onnx`: each linear layer with a constant B weight (MatMul, and
 * Gemm, whose bias becomes an Add) becomes onnxruntime's
 * `com.microsoft.MatMulNBits` (bits 4, block 32, symmetric, default zero
 * point 8), which dequantizes blocks of the packed weight as it multiplies.
 * Embedding tables and every other op stay fp32, as do MatMuls whose
 * constant is the A input (MatMulNBits only takes a constant B).
 */
import type { GraphIndex } from './graph-index.js';
import { linearOps, weightMatrix, type LinearOp } from './matmul-weights.js';
import { ensureOpset, floatTensor, intAttr, node, uint8Tensor, type NodeProto, type TensorProto } from '../../core/onnx/onnx-file.js';

/** Elements per quantization block along K; onnxruntime requires a power of two ≥ 16. */
export const Q4_BLOCK_SIZE = 32;

/**
 * Packs a [K, N] weight as MatMulNBits expects: for each output column n and
 * block b, `block/2` bytes, element j in the low nibble when j is even.
 * Values are round(w / scale) + 8 in 0..15 with scale = max|block| / 7.
 */
export function packInt4Columns(values: Float32Array, k: number, n: number, block = Q4_BLOCK_SIZE): { packed: Uint8Array; scales: Float32Array; blocks: number } {
  const blocks = Math.ceil(k / block);
  const blob = block / 2;
  const packed = new Uint8Array(n * blocks * blob);
  const scales = new Float32Array(n * blocks);
  for (let col = 0; col < n; col++) {
    for (let b = 0; b < blocks; b++) {
      let max = 0;
      const end = Math.min(k, (b + 1) * block);
      for (let row = b * block; row < end; row++) max = Math.max(max, Math.abs(values[row * n + col] as number));
      const scale = max > 0 ? max / 7 : 1;
      scales[col * blocks + b] = scale;
      const base = (col * blocks + b) * blob;
      for (let j = 0; j < block; j++) {
        const row = b * block + j;
        const w = row < k ? (values[row * n + col] as number) : 0;
        const q = Math.max(0, Math.min(15, Math.round(w / scale) + 8));
        packed[base + (j >> 1)] = (packed[base + (j >> 1)] as number) | (q << ((j & 1) * 4));
      }
    }
  }
  return { packed, scales, blocks };
}

/** Rewrites the graph in place; returns the layers quantized. */
export function quantizeMatMulNBits(index: GraphIndex, dir: string, block = Q4_BLOCK_SIZE): LinearOp[] {
  const layers = linearOps(index).filter((op) => op.kind !== 'matmul-a');
  const byNode = new Map(layers.map((op) => [op.node, op]));
  const packedOf = new Map<string, { q: string; scales: string }>();
  const added: TensorProto[] = [];
  const nodes: NodeProto[] = [];
  for (const n of index.nodes) {
    const op = byNode.get(n);
    if (!op) {
      nodes.push(n);
      continue;
    }
    // A weight shared by several layers (ALBERT) is packed once.
    const key = `${op.weight}|${op.transB}`;
    let packed = packedOf.get(key);
    if (!packed) {
      const p = packInt4Columns(weightMatrix(index, op, dir), op.rows, op.cols, block);
      packed = { q: index.freshName(`${op.weight}_Q4`), scales: index.freshName(`${op.weight}_scales`) };
      added.push(uint8Tensor(packed.q, [op.cols, p.blocks, block / 2], p.packed), floatTensor(packed.scales, [op.cols * p.blocks], p.scales));
      packedOf.set(key, packed);
    }
    const name = n.name || index.freshName('MatMul');
    const out = n.output?.[0] ?? '';
    const product = op.bias ? index.freshName(`${out}_MatMulNBits`) : out;
    nodes.push(node('MatMulNBits', index.freshName(`${name}_Q4`), [op.activation, packed.q, packed.scales], [product], [intAttr('K', op.rows), intAttr('N', op.cols), intAttr('bits', 4), intAttr('block_size', block)], 'com.microsoft'));
    if (op.bias) nodes.push(node('Add', index.freshName(`${name}_bias`), [product, op.bias], [out]));
  }
  index.graph.node = nodes;
  index.addInitializers(added);
  index.dropUnusedInitializers();
  ensureOpset(index.model, 'com.microsoft', 1);
  return layers;
}
