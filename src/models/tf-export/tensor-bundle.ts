/**
 * A TensorFlow V2 checkpoint (a "tensor bundle") as the SavedModel writer
 * stores its weights: `variables.index`, an SSTable mapping each tensor's
 * name to a BundleEntryProto (dtype, shape, offset and size in the data
 * file, masked CRC-32C of its bytes) after a header entry under the empty
 * key, and `variables.data-00000-of-00001`, the tensors' bytes one after
 * another. The layout is that of tensorflow/core/util/tensor_bundle/
 * tensor_bundle.cc (BundleWriter: one shard, little-endian, no alignment
 * padding, entries in key order) and tensorflow/core/lib/io/table_builder.cc
 * with block_builder.cc and format.cc (uncompressed blocks, each followed by
 * a type byte and the masked CRC-32C of block and type, which TensorFlow's
 * reader verifies; a 48-byte footer ending in the table magic).
 *
 * Why a checkpoint at all: weights written as Const nodes make TensorFlow
 * parse, copy and constant-fold a graph as large as the model on load and on
 * the first run (17.7 CPU-s for minilm's 90 MB, `npm run bench:saved-model`); weights restored into
 * variables stay out of the graph, as in a SavedModel TensorFlow writes.
 */
import { concatBytes, varintBytes } from '../../core/onnx/protobuf-wire.js';
import { tfMessage } from './tf-proto.js';

/** The tensor bundle format's version (kTensorBundleVersion), which readers check. */
const TENSOR_BUNDLE_VERSION = 1;
/** table::Footer's magic number (kTableMagicNumber), written little-endian as two 32-bit halves. */
const TABLE_MAGIC_LOW = 0x8b80fb57;
const TABLE_MAGIC_HIGH = 0xdb477524;
/** Restart interval of data blocks (table::Options::block_restart_interval); the index block uses 1, as TableBuilder does. */
const DATA_RESTART_INTERVAL = 16;

/** The data file of a one-shard bundle (DataFilename(prefix, 0, 1)). */
export const BUNDLE_DATA_FILE = 'variables.data-00000-of-00001';
export const BUNDLE_INDEX_FILE = 'variables.index';

let crcTable: Uint32Array | undefined;

/** CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), the checksum of TensorFlow's tables and bundles. */
export function crc32c(bytes: Uint8Array, crc = 0): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

/** crc32c::Mask: a CRC stored beside the data it covers is rotated and offset, so a CRC of a CRC differs. */
export function maskCrc(crc: number): number {
  return ((((crc >>> 15) | (crc << 17)) >>> 0) + 0xa282ead8) >>> 0;
}

/** One tensor of the bundle: its checkpoint key, TensorFlow dtype code, dims and little-endian bytes. */
export interface BundleTensor {
  readonly key: string;
  readonly dtype: number;
  readonly dims: readonly number[];
  readonly bytes: Uint8Array;
}

/** A bundle's two files: the index bytes, and the data file as its chunks (one per tensor, in key order). */
export interface BundleFiles {
  readonly index: Uint8Array;
  readonly data: readonly Uint8Array[];
}

class ByteSink {
  private readonly parts: Uint8Array[] = [];
  length = 0;
  bytes(b: Uint8Array): void {
    this.parts.push(b);
    this.length += b.length;
  }
  varint(value: number): void {
    this.bytes(Uint8Array.from(varintBytes(value)));
  }
  fixed32(value: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, value >>> 0, true);
    this.bytes(b);
  }
  finish(): Uint8Array {
    return concatBytes(this.parts);
  }
}

/** block_builder.cc: prefix-compressed entries, a restart point every `interval` entries, then the restart offsets and their count. */
function blockContents(entries: readonly (readonly [Uint8Array, Uint8Array])[], interval: number): Uint8Array {
  const sink = new ByteSink();
  const restarts: number[] = [0];
  let last: Uint8Array = new Uint8Array(0);
  entries.forEach(([key, value], i) => {
    let shared = 0;
    if (i % interval !== 0) {
      while (shared < last.length && shared < key.length && last[shared] === key[shared]) shared++;
    } else if (i > 0) {
      restarts.push(sink.length);
    }
    sink.varint(shared);
    sink.varint(key.length - shared);
    sink.varint(value.length);
    sink.bytes(key.subarray(shared));
    sink.bytes(value);
    last = key;
  });
  for (const r of restarts) sink.fixed32(r);
  sink.fixed32(restarts.length);
  return sink.finish();
}

/** Appends a block and its trailer (type 0, uncompressed; masked CRC-32C of contents and type); returns its BlockHandle. */
function writeBlock(sink: ByteSink, contents: Uint8Array): { offset: number; size: number } {
  const offset = sink.length;
  sink.bytes(contents);
  const type = Uint8Array.of(0);
  sink.bytes(type);
  sink.fixed32(maskCrc(crc32c(type, crc32c(contents))));
  return { offset, size: contents.length };
}

function handleBytes(h: { offset: number; size: number }): Uint8Array {
  const s = new ByteSink();
  s.varint(h.offset);
  s.varint(h.size);
  return s.finish();
}

/**
 * The SSTable of `entries` (sorted by key bytes, as TableBuilder requires):
 * one data block, an empty metaindex block, an index block whose one entry
 * (the last key) points at the data block, and the footer.
 */
export function sstable(entries: readonly (readonly [Uint8Array, Uint8Array])[]): Uint8Array {
  const sink = new ByteSink();
  const data = writeBlock(sink, blockContents(entries, DATA_RESTART_INTERVAL));
  const meta = writeBlock(sink, blockContents([], 1));
  const lastKey = entries.length > 0 ? (entries[entries.length - 1] as readonly [Uint8Array, Uint8Array])[0] : new Uint8Array(0);
  const index = writeBlock(sink, blockContents([[lastKey, handleBytes(data)]], 1));
  // Footer: both handles, zero padding to 40 bytes (2 × kMaxEncodedLength), then the magic.
  const footer = new Uint8Array(48);
  const handles = new Uint8Array([...handleBytes(meta), ...handleBytes(index)]);
  footer.set(handles, 0);
  const view = new DataView(footer.buffer);
  view.setUint32(40, TABLE_MAGIC_LOW, true);
  view.setUint32(44, TABLE_MAGIC_HIGH, true);
  sink.bytes(footer);
  return sink.finish();
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** The index and data of a one-shard bundle holding `tensors` (keys unique and non-empty). */
export function tensorBundle(tensors: readonly BundleTensor[]): BundleFiles {
  const encoder = new TextEncoder();
  const sorted = tensors.map((t) => ({ t, key: encoder.encode(t.key) })).sort((a, b) => compareBytes(a.key, b.key));
  const header = tfMessage('BundleHeaderProto');
  const entry = tfMessage('BundleEntryProto');
  const entries: [Uint8Array, Uint8Array][] = [
    // The header sits under the empty key, so it sorts first; endianness 0 is LITTLE.
    [new Uint8Array(0), header.encode(header.fromObject({ num_shards: 1, endianness: 0, version: { producer: TENSOR_BUNDLE_VERSION } })).finish()],
  ];
  let offset = 0;
  for (const { t, key } of sorted) {
    if (key.length === 0) throw new Error('a checkpoint tensor needs a non-empty name (the empty key is the header)');
    const message = { dtype: t.dtype, shape: { dim: t.dims.map((size) => ({ size })) }, shard_id: 0, offset, size: t.bytes.length, crc32c: maskCrc(crc32c(t.bytes)) };
    entries.push([key, entry.encode(entry.fromObject(message)).finish()]);
    offset += t.bytes.length;
  }
  return { index: sstable(entries), data: sorted.map(({ t }) => t.bytes) };
}
