import { ELEMENTWISE_OPS } from './ops-elementwise.js';
import { FUSED_DOMAIN, FUSED_OPS } from './graph-fusion.js';
import { INDEXING_OPS } from './ops-indexing.js';
import { NN_OPS } from './ops-nn.js';
import { MICROSOFT_OPS, PREPARED_QUANTIZED_OPS, QUANTIZED_OP_HANDLERS } from './ops-quantized.js';
import { TENSOR_OPS } from './ops-tensor.js';
import type { OnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { tfDTypeFor, type OpHandler } from './op-values.js';

/**
 * Every ONNX op (default domain) the tfjs translator runs. One table, so open
 * can reject a graph before any weights move, and `inspect` can say what
 * would be skipped.
 */
export const ONNX_OPS: ReadonlyMap<string, OpHandler> = new Map(
  Object.entries({ ...ELEMENTWISE_OPS, ...TENSOR_OPS, ...INDEXING_OPS, ...NN_OPS, ...QUANTIZED_OP_HANDLERS }),
);

/** The handler for a node's op, or undefined when the translator lacks it (of com.microsoft it runs only MatMulNBits). */
export function opHandlerFor(opType: string, domain: string): OpHandler | undefined {
  if (domain === FUSED_DOMAIN) return FUSED_OPS.get(opType) ?? PREPARED_QUANTIZED_OPS.get(opType);
  if (domain === 'com.microsoft') return MICROSOFT_OPS.get(opType);
  if (domain !== '' && domain !== 'ai.onnx') return undefined;
  return ONNX_OPS.get(opType);
}

/** An op type the translator cannot run, with how often the graph uses it and one node to look at. */
export interface UnsupportedOp {
  readonly op: string;
  readonly count: number;
  readonly firstNode: string;
}

/**
 * What stops the tfjs engines from running `model`, without loading any
 * weights: ops the translator lacks (domain-qualified when not ai.onnx) and
 * graph inputs or outputs of a dtype tfjs cannot hold. Empty lists mean the
 * translation can run it.
 */
export function tfjsCoverage(model: OnnxModel): { unsupported: UnsupportedOp[]; dtypeProblems: string[] } {
  const unsupported = new Map<string, UnsupportedOp>();
  for (const node of model.nodes) {
    if (opHandlerFor(node.opType, node.domain)) continue;
    const op = node.domain && node.domain !== 'ai.onnx' ? `${node.domain}.${node.opType}` : node.opType;
    const prev = unsupported.get(op);
    unsupported.set(op, { op, count: (prev?.count ?? 0) + 1, firstNode: prev?.firstNode ?? node.name });
  }
  const dtypeProblems = [...model.inputs.map((v) => ['input', v] as const), ...model.outputs.map((v) => ['output', v] as const)]
    .filter(([, v]) => !tfDTypeFor(v.dtype))
    .map(([kind, v]) => `graph ${kind} '${v.name}' has dtype ${v.dtype}, which tfjs cannot hold`);
  return { unsupported: [...unsupported.values()].sort((a, b) => b.count - a.count || a.op.localeCompare(b.op)), dtypeProblems };
}
