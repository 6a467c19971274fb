/**
 * The protobuf wire format at the byte level, for the two places that must
 * not decode a whole ONNX file: the streaming writer (onnx-file.ts writes a
 * model's weights piece by piece, so a 2 GiB model is never one buffer) and
 * the signature reader (src/models/onnx-signature.ts walks the file to read
 * a few names and skips every weight), and the TensorFlow checkpoint
 * tables the SavedModel exporter writes (models/tf-export/tensor-bundle.ts).
 * Everything else decodes through onnx-proto.ts.
 */

/** Reads one base-128 varint at `at`; returns the value (exact below 2^53) and the offset after it. */
export function readVarint(buf: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const byte = buf[i] as number;
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (byte < 0x80) return [value, i + 1];
  }
  throw new Error(`truncated or invalid varint at byte ${at}`);
}

/** The fields of one protobuf message as [field number, wire type, start, end] (a LEN field: its payload). */
export function wireFields(buf: Uint8Array): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, afterKey] = readVarint(buf, at);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let start = afterKey;
    let end: number;
    if (wire === 0) end = readVarint(buf, afterKey)[1];
    else if (wire === 1) end = afterKey + 8;
    else if (wire === 5) end = afterKey + 4;
    else if (wire === 2) {
      const [length, payload] = readVarint(buf, afterKey);
      start = payload;
      end = payload + length;
    } else throw new Error(`invalid wire type ${wire} at byte ${at}`);
    if (field === 0 || end > buf.length) throw new Error(`field ${field} at byte ${at} runs past the end (${buf.length} bytes)`);
    out.push([field, wire, start, end]);
    at = end;
  }
  return out;
}

/** `value` as a base-128 varint (protobuf's, and leveldb's in TensorFlow's checkpoint tables). */
export function varintBytes(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}

/** The tag and length prefix of a length-delimited (LEN) field. */
export function lengthField(field: number, length: number): Uint8Array {
  return Uint8Array.from([...varintBytes(field * 8 + 2), ...varintBytes(length)]);
}

/** Byte arrays one after another, in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
