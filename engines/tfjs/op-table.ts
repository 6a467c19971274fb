import { ELEMENTWISE_OPS } from './ops-elementwise.js';
import { FUSED_DOMAIN, FUSED_OPS } from './graph-fusion.js';
import { INDEXING_OPS } from './ops-indexing.js';
import { NN_OPS } from './ops-nn.js';
import { TENSOR_OPS } from './ops-tensor.js';
import type { OpHandler } from './op-values.js';

/**
 * Every ONNX op (default domain) the tfjs translator runs. One table, so load
 * can reject a graph before any weights move, and `inspect` can say what
 * would be skipped.
 */
export const ONNX_OPS: ReadonlyMap<string, OpHandler> = new Map(
  Object.entries({ ...ELEMENTWISE_OPS, ...TENSOR_OPS, ...INDEXING_OPS, ...NN_OPS }),
);

/** The handler for a node's op, or undefined when the translator lacks it or the op lives in another domain (com.microsoft…). */
export function opHandlerFor(opType: string, domain: string): OpHandler | undefined {
  if (domain === FUSED_DOMAIN) return FUSED_OPS.get(opType);
  if (domain !== '' && domain !== 'ai.onnx') return undefined;
  return ONNX_OPS.get(opType);
}

/** Supported op types, sorted, for documentation and `inspect`. */
export function supportedOnnxOps(): string[] {
  return [...ONNX_OPS.keys()].sort();
}
