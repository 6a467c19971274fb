/**
 * Parquet and Arrow hand back 64-bit integers as `bigint` and nested values
 * as their own objects. Rows leave the readers as plain JSON-like values, so
 * labels compare with `0` and `1` like those from JSONL or CSV, and callbacks
 * see the same shapes whatever the file format.
 */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (value !== null && typeof value === 'object') {
    if (ArrayBuffer.isView(value) || value instanceof Date) return value;
    const json = (value as { toJSON?: () => unknown }).toJSON;
    if (typeof json === 'function') return plainValue(json.call(value));
    if (Array.isArray(value)) return value.map(plainValue);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = plainValue(v);
    return out;
  }
  return value;
}
