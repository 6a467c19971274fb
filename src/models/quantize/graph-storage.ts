/**
 * What a graph file's weights are stored as, read from its initializers'
 * shapes and types (external data is never read): how many bytes stay
 * float32 and where (embedding tables that Gather reads, the per-block
 * scales of MatMulNBits, the rest), against the bytes stored in 8 or fewer
 * bits. It says why a 4-bit variant can be larger than an 8-bit one: on a
 * small model the float32 embeddings MatMulNBits leaves alone outweigh what
 * the 4-bit weights save.
 */
import { formatBytes } from '../../core/units.js';
import { decodeOnnxFile, elementCount, DT } from '../../core/onnx/onnx-file.js';

/** Bytes per element of the tensor types graphs store weights in (sub-byte types are packed into UINT8 by their ops). */
const ELEMENT_BYTES: Readonly<Record<number, number>> = {
  [DT.FLOAT]: 4,
  [DT.UINT8]: 1,
  [DT.INT8]: 1,
  4: 2, // UINT16
  5: 2, // INT16
  [DT.INT32]: 4,
  [DT.INT64]: 8,
  9: 1, // BOOL
  [DT.FLOAT16]: 2,
  [DT.DOUBLE]: 8,
  12: 4, // UINT32
  13: 8, // UINT64
  16: 2, // BFLOAT16
};

/** Where a graph's initializer bytes are, by how they are stored. */
export interface GraphStorage {
  /** Every initializer's bytes. */
  readonly totalBytes: number;
  /** float32 tensors: weights left unquantized and the scales quantization added. */
  readonly fp32Bytes: number;
  /** Of those, the tables a Gather reads (token, position and type embeddings). */
  readonly fp32EmbeddingBytes: number;
  /** Of those, MatMulNBits' per-block scales. */
  readonly fp32BlockScaleBytes: number;
  /** Tensors of one byte or less per weight (uint8, int8, packed 4-bit). */
  readonly lowBitBytes: number;
}

/** Reads the storage of the graph at `path`. */
export async function graphStorage(path: string): Promise<GraphStorage> {
  const { model } = await decodeOnnxFile(path);
  const graph = model.graph ?? {};
  const nodes = graph.node ?? [];
  const gathered = new Set<string | undefined>(nodes.filter((n) => n.opType === 'Gather').map((n) => n.input?.[0]));
  const scales = new Set<string | undefined>(nodes.filter((n) => n.opType === 'MatMulNBits').map((n) => n.input?.[2]));
  let totalBytes = 0;
  let fp32Bytes = 0;
  let fp32EmbeddingBytes = 0;
  let fp32BlockScaleBytes = 0;
  let lowBitBytes = 0;
  for (const t of graph.initializer ?? []) {
    const type = t.dataType ?? 0;
    const bytes = elementCount(t) * (ELEMENT_BYTES[type] ?? 0);
    totalBytes += bytes;
    if (type === DT.FLOAT) {
      fp32Bytes += bytes;
      if (gathered.has(t.name ?? undefined)) fp32EmbeddingBytes += bytes;
      if (scales.has(t.name ?? undefined)) fp32BlockScaleBytes += bytes;
    } else if (type === DT.UINT8 || type === DT.INT8) {
      lowBitBytes += bytes;
    }
  }
  return { totalBytes, fp32Bytes, fp32EmbeddingBytes, fp32BlockScaleBytes, lowBitBytes };
}

/** One variant row's graph, for comparing sizes. */
export interface StoredVariant {
  readonly dtype: string;
  /** Bits per quantized weight (32, 16, 8, 4), or null when mixed or unknown. */
  readonly bits: number | null;
  readonly path: string;
  readonly sizeBytes: number;
}

/**
 * Why `low` (fewer bits per weight) is larger on disk than `high`, read from
 * both files: what stays float32 in each (embedding tables, block scales,
 * the rest) against what is stored in 8 or fewer bits. Null when `low` is not
 * the larger, or either graph's bits are unknown.
 */
export async function sizeInversionNote(low: StoredVariant, high: StoredVariant): Promise<string | null> {
  if (low.bits === null || high.bits === null || low.bits >= high.bits || low.sizeBytes <= high.sizeBytes) return null;
  const [a, b] = await Promise.all([graphStorage(low.path), graphStorage(high.path)]);
  const parts = [
    a.fp32EmbeddingBytes > 0
      ? `${formatBytes(a.fp32EmbeddingBytes)} are embedding tables, read by Gather and left float32${b.fp32EmbeddingBytes === 0 ? `, which ${high.dtype} quantizes` : b.fp32EmbeddingBytes < a.fp32EmbeddingBytes ? ` (${formatBytes(b.fp32EmbeddingBytes)} in ${high.dtype})` : ''}`
      : null,
    a.fp32BlockScaleBytes > 0 ? `${formatBytes(a.fp32BlockScaleBytes)} are the scales of its weight blocks` : null,
  ].filter((p): p is string => p !== null);
  return (
    `larger than ${high.dtype} (${formatBytes(high.sizeBytes)}) though ${low.bits}-bit: ${formatBytes(a.fp32Bytes)} of its weights are float32 against ${formatBytes(b.fp32Bytes)} in ${high.dtype}` +
    `${parts.length > 0 ? ` (${parts.join('; ')})` : ''}, while its ${low.bits}-bit weights take ${formatBytes(a.lowBitBytes)} against ${formatBytes(b.lowBitBytes)}: on a model this small the float32 part outweighs what fewer bits save`
  );
}
