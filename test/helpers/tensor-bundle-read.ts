/**
 * Reads a tensor-bundle checkpoint back for tests, by the format's rules
 * rather than the writer's code: the SSTable footer (magic), the index and
 * data blocks (each block's masked CRC-32C checked against its trailer,
 * prefix-compressed entries decoded), then the BundleHeaderProto under the
 * empty key and one BundleEntryProto per tensor, whose CRC is checked
 * against the bytes at its offset in the data file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readVarint } from '../../src/core/onnx/protobuf-wire.js';
import { crc32c, maskCrc } from '../../src/models/tf-export/tensor-bundle.js';
import { tfMessage } from '../../src/models/tf-export/tf-proto.js';

function block(file: Uint8Array, offset: number, size: number): Uint8Array {
  const contents = file.subarray(offset, offset + size);
  const trailer = new DataView(file.buffer, file.byteOffset + offset + size, 5);
  if (trailer.getUint8(0) !== 0) throw new Error(`block at ${offset} is compressed (type ${trailer.getUint8(0)})`);
  const want = trailer.getUint32(1, true);
  const got = maskCrc(crc32c(file.subarray(offset + size, offset + size + 1), crc32c(contents)));
  if (want !== got) throw new Error(`block at ${offset}: CRC ${got} in place of ${want}`);
  return contents;
}

function entries(contents: Uint8Array): [Uint8Array, Uint8Array][] {
  const view = new DataView(contents.buffer, contents.byteOffset, contents.byteLength);
  const restarts = view.getUint32(contents.length - 4, true);
  const end = contents.length - 4 - restarts * 4;
  const out: [Uint8Array, Uint8Array][] = [];
  let last = new Uint8Array(0);
  for (let at = 0; at < end;) {
    const [shared, a] = readVarint(contents, at);
    const [own, b] = readVarint(contents, a);
    const [valueLength, c] = readVarint(contents, b);
    const key = new Uint8Array(shared + own);
    key.set(last.subarray(0, shared));
    key.set(contents.subarray(c, c + own), shared);
    out.push([key, contents.subarray(c + own, c + own + valueLength)]);
    last = key;
    at = c + own + valueLength;
  }
  return out;
}

/** Every [key, value] of the SSTable in `file`, in stored order. */
export function readSstable(file: Uint8Array): [string, Uint8Array][] {
  const footer = file.subarray(file.length - 48);
  const fv = new DataView(footer.buffer, footer.byteOffset, 48);
  if (fv.getUint32(40, true) !== 0x8b80fb57 || fv.getUint32(44, true) !== 0xdb477524) throw new Error('no table magic in the footer');
  const [, a] = readVarint(footer, 0);
  const [, b] = readVarint(footer, a);
  const [indexOffset, c] = readVarint(footer, b);
  const [indexSize] = readVarint(footer, c);
  const out: [string, Uint8Array][] = [];
  for (const [, handle] of entries(block(file, indexOffset, indexSize))) {
    const [offset, d] = readVarint(handle, 0);
    const [size] = readVarint(handle, d);
    for (const [k, v] of entries(block(file, offset, size))) out.push([new TextDecoder().decode(k), v]);
  }
  return out;
}

export interface BundleEntry {
  readonly dtype: number;
  readonly dims: number[];
  readonly offset: number;
  readonly size: number;
}

/** The checkpoint `<dir>/variables/variables.*`: header and entries, each entry's CRC checked against the data file. */
export function readBundle(dir: string): { header: { num_shards?: number; version?: { producer?: number } }; keys: string[]; entries: Map<string, BundleEntry> } {
  const table = readSstable(new Uint8Array(readFileSync(join(dir, 'variables', 'variables.index'))));
  const data = new Uint8Array(readFileSync(join(dir, 'variables', 'variables.data-00000-of-00001')));
  const [first, ...rest] = table;
  if (!first || first[0] !== '') throw new Error('the index does not start with the header entry');
  const headerType = tfMessage('BundleHeaderProto');
  const entryType = tfMessage('BundleEntryProto');
  const header = headerType.toObject(headerType.decode(first[1]), { longs: Number }) as { num_shards?: number; version?: { producer?: number } };
  const map = new Map<string, BundleEntry>();
  for (const [key, value] of rest) {
    const e = entryType.toObject(entryType.decode(value), { longs: Number, defaults: true }) as { dtype: number; shape?: { dim?: { size: number }[] }; offset: number; size: number; crc32c: number };
    const bytes = data.subarray(e.offset, e.offset + e.size);
    if (bytes.length !== e.size) throw new Error(`${key}: ${e.size} bytes at ${e.offset} run past the data file`);
    if (maskCrc(crc32c(bytes)) !== e.crc32c) throw new Error(`${key}: data CRC does not match its entry`);
    map.set(key, { dtype: e.dtype, dims: (e.shape?.dim ?? []).map((d) => Number(d.size)), offset: e.offset, size: e.size });
  }
  return { header, keys: rest.map(([k]) => k), entries: map };
}
