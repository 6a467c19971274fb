import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { MessageReader, Type, type FixedSizeList } from 'apache-arrow';
import { SavedOutputs, rowTextHash } from '../../src/scenarios/classify/saved-outputs.js';
import type { RowOutputs } from '../../src/core/parity.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** `rows` rows of one output named `name`, each `width` values. */
function outputs(name: string, rows: number, width: number, seed: number): RowOutputs {
  return { names: [name], rows: Array.from({ length: rows }, (_, r) => [Array.from({ length: width }, (_, i) => (seed + r * width + i) / 100)]) };
}

/** The Arrow schema a Parquet file carries in its `ARROW:schema` metadata, as pyarrow reads it back. */
function arrowSchemaOf(bytes: Uint8Array) {
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  const stored = metadata.key_value_metadata?.find((kv) => kv.key === 'ARROW:schema')?.value;
  assert.ok(stored, `the file carries its Arrow schema (metadata keys: ${metadata.key_value_metadata?.map((kv) => kv.key).join(', ') ?? 'none'})`);
  const schema = new MessageReader(Buffer.from(stored, 'base64')).readSchema();
  assert.ok(schema, 'ARROW:schema holds a schema message');
  return schema;
}

test('outputs.parquet holds the vector as a fixed-size list of float32 (Arrow FixedSizeList), beside engine, batch_size, row and the text hash', async () => {
  const dataset = memoryDataset(4);
  const saved = new SavedOutputs(dataset, { text: 'text', label: 'label' });
  saved.add({ model: 'st', engine: 'onnx-cpu', batchSize: 2, requestedThreads: null }, 'reference', outputs('sentence_embedding', 4, 6, 0));
  saved.add({ model: 'st', engine: 'tfjs-wasm', batchSize: 2, requestedThreads: 1 }, 'parity failed', outputs('sentence_embedding', 3, 6, 50));
  const dir = testOutputDir('saved-outputs-fixed-size');
  const paths = await saved.write(dir);
  assert.deepEqual(paths.map((p) => basename(p)), ['outputs.parquet']);
  const bytes = new Uint8Array(readFileSync(paths[0] ?? ''));

  const schema = arrowSchemaOf(bytes);
  for (const name of ['engine', 'batch_size', 'row', 'text_sha256']) assert.ok(schema.fields.some((f) => f.name === name), `column ${name}`);
  const vector = schema.fields.find((f) => f.name === 'vector');
  assert.equal(vector?.type.typeId, Type.FixedSizeList, `vector is ${String(vector?.type)}`);
  const list = vector?.type as FixedSizeList;
  assert.equal(list.listSize, 6);
  assert.equal(list.children[0]?.type.typeId, Type.Float);
  assert.equal(String(list.children[0]?.type), 'Float32');
  assert.equal(String(schema.fields.find((f) => f.name === 'batch_size')?.type), 'Int64');

  // The Parquet columns agree with the schema they declare: every vector has the declared length, float32 values.
  const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer })) as { engine: string; batch_size: bigint; requested_threads: bigint | null; row: bigint; text_sha256: string; vector: number[] }[];
  assert.equal(rows.length, 7);
  assert.deepEqual(rows.map((r) => r.engine), [...Array(4).fill('onnx-cpu'), ...Array(3).fill('tfjs-wasm')]);
  assert.deepEqual(rows.map((r) => Number(r.row)), [0, 1, 2, 3, 0, 1, 2]);
  const texts: string[] = [];
  for await (const row of dataset) texts.push(String(row['text']));
  assert.deepEqual(rows.slice(0, 4).map((r) => r.text_sha256), texts.map(rowTextHash));
  for (const r of rows) assert.equal(r.vector.length, 6);
  assert.equal(rows[5]?.vector[1], Math.fround((50 + 6 + 1) / 100));
});

test('models whose vectors differ in length get one outputs-<model>.parquet each, since a fixed-size list has one length', async () => {
  const saved = new SavedOutputs(memoryDataset(2), { text: 'text', label: 'label' });
  saved.add({ model: 'mini-embed', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null }, 'reference', outputs('sentence_embedding', 2, 8, 0));
  saved.add({ model: 'tiny · q8', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null }, 'reference', outputs('logits', 2, 2, 0));
  const dir = testOutputDir('saved-outputs-two-widths');
  const paths = await saved.write(dir);
  assert.deepEqual(paths.map((p) => basename(p)), ['outputs-mini-embed.parquet', 'outputs-tiny-q8.parquet']);
  const sizes = paths.map((p) => (arrowSchemaOf(new Uint8Array(readFileSync(p))).fields.find((f) => f.name === 'vector')?.type as FixedSizeList).listSize);
  assert.deepEqual(sizes, [8, 2]);
});
