/**
 * Which dtypes inferbench can write from an fp32 graph, and the one entry
 * point that applies the right writer and says what it did. Used for the
 * models inferbench generates (variants beside their model.onnx) and for any
 * user's export (variants in the quantize cache).
 */
import type { ModelDtype } from '../../core/dtypes.js';
import { GraphIndex, hasSubgraphs, notFp32Reason } from './graph-index.js';
import { describeLinearOps, linearOps } from './matmul-weights.js';
import { quantizeDynamicInt8 } from './dynamic-int8.js';
import { quantizeMatMulNBits, Q4_BLOCK_SIZE } from './int4-matmulnbits.js';
import { convertToFloat16 } from './fp16.js';
import { quantizeStaticQdq, type ActivationRange } from './static-qdq.js';
import { DT, tagVariant, type DecodedModel } from '../../core/onnx/onnx-file.js';
import type { WritableDtype } from './writable-dtypes.js';

/** Why a variant could not be written, said in the row: a refused source or nothing to quantize. */
export class VariantRefused extends Error {
  override readonly name = 'VariantRefused';
}

/** Static quantization's input: the activation ranges and how they were measured. */
export interface StaticCalibration {
  readonly ranges: ReadonlyMap<string, ActivationRange>;
  /** e.g. `128 rows, minmax`. */
  readonly description: string;
}

/**
 * Rewrites `decoded.model` in place into `dtype` and returns the method, for
 * the row's note and the file's metadata. Throws VariantRefused when the
 * source is not fp32 or holds nothing to quantize.
 */
export function writeVariantGraph(decoded: DecodedModel, dtype: WritableDtype, calibration?: StaticCalibration): string {
  const refused = notFp32Reason(decoded.model);
  if (refused) throw new VariantRefused(`refused: the source onnx/model.onnx is not an fp32 graph: ${refused}`);
  const index = new GraphIndex(decoded.model);
  const ops = linearOps(index);
  if (dtype !== 'fp16' && ops.length === 0) throw new VariantRefused('nothing to quantize: the graph has no MatMul or Gemm with a constant float32 weight');
  const found = describeLinearOps(ops);
  let method: string;
  switch (dtype) {
    case 'fp16': {
      if (hasSubgraphs(index.graph)) throw new VariantRefused('refused: fp16 conversion of graphs with If/Loop/Scan subgraphs is not supported (their constants would stay float32)');
      if (!(decoded.model.graph?.initializer ?? []).some((t) => t.dataType === DT.FLOAT)) throw new VariantRefused('nothing to convert: the graph has no float32 weights');
      convertToFloat16(index, decoded.dir);
      method = 'fp16: float weights and constants stored as float16; float inputs and outputs kept float32 (keep_io_types)';
      break;
    }
    case 'q8':
    case 'uint8':
    case 'int8': {
      const weights = dtype === 'int8' ? 'int8' : 'uint8';
      const { gathers } = quantizeDynamicInt8(index, { weights, dir: decoded.dir });
      method = `dynamic ${weights} as quantize_dynamic writes it: DynamicQuantizeLinear → MatMulInteger, per-channel ${weights} weights (${found})${gathers > 0 ? `, ${gathers} embedding Gather uint8` : ''}`;
      break;
    }
    case 'q4': {
      const done = quantizeMatMulNBits(index, decoded.dir);
      if (done.length === 0) throw new VariantRefused('nothing to quantize: MatMulNBits takes only a constant B weight, and this graph has none');
      method = `MatMulNBits (com.microsoft): 4-bit symmetric weights, block ${Q4_BLOCK_SIZE} (${describeLinearOps(done)}); embeddings and other ops fp32`;
      break;
    }
    case 'q8-static': {
      if (!calibration) throw new Error('q8-static needs calibration ranges');
      const done = quantizeStaticQdq(index, calibration.ranges, { dir: decoded.dir });
      if (done.length === 0) throw new VariantRefused('nothing to quantize: no linear layer had a calibrated activation');
      method = `static QDQ calibrated on ${calibration.description}: QuantizeLinear/DequantizeLinear uint8 activations, per-channel uint8 weights (${describeLinearOps(done)}), embeddings uint8`;
      break;
    }
  }
  tagVariant(decoded.model, dtype, method);
  return method;
}
