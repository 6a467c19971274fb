import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import fsPromises from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../src/core/errors.js';
import { packageRoot } from '../../src/core/package-info.js';
import { readOnnxSignature } from '../../src/models/onnx-signature.js';

const BERT = join(packageRoot(), 'test', 'data', 'hf', 'bert', 'onnx', 'model.onnx');
const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed', 'onnx', 'model.onnx');

/** Counts the opens of `path` while `work` runs (fs/promises.open patched, as the ESM importers see it). */
async function countOpens(path: string, work: () => Promise<void>): Promise<number> {
  const original = fsPromises.open;
  let opens = 0;
  fsPromises.open = ((p: Parameters<typeof original>[0], ...rest: unknown[]) => {
    if (String(p) === path) opens += 1;
    return (original as (...a: unknown[]) => ReturnType<typeof original>)(p, ...rest);
  }) as typeof original;
  syncBuiltinESMExports();
  try {
    await work();
  } finally {
    fsPromises.open = original;
    syncBuiltinESMExports();
  }
  return opens;
}

test('readOnnxSignature reads and decodes an unchanged file once: a second ask (task detection, then the inputs) opens nothing', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'onnx-sig-')), 'model.onnx');
  copyFileSync(BERT, file);
  let first: Awaited<ReturnType<typeof readOnnxSignature>> | null = null;
  let second: Awaited<ReturnType<typeof readOnnxSignature>> | null = null;
  const opens = await countOpens(file, async () => {
    first = await readOnnxSignature(file);
    second = await readOnnxSignature(file);
  });
  assert.equal(opens, 1, 'the file is opened for the first read only');
  assert.deepEqual(second, first);
  assert.ok((first as unknown as { outputs: { name: string }[] }).outputs.some((o) => o.name === 'logits'));
});

test('readOnnxSignature reads a file again once it changed, refuses a truncated or garbled one (never from memory), and gives each caller its own lists', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'onnx-sig-')), 'model.onnx');
  copyFileSync(BERT, file);
  const bert = await readOnnxSignature(file);
  assert.deepEqual(bert.outputs.map((o) => o.name), ['logits']);
  // One caller editing its lists leaves the next caller's untouched.
  bert.inputs.length = 0;
  assert.ok((await readOnnxSignature(file)).inputs.length > 0);
  copyFileSync(ST, file);
  const st = await readOnnxSignature(file);
  assert.ok(!st.outputs.some((o) => o.name === 'logits'), `the new file's outputs: ${st.outputs.map((o) => o.name).join(', ')}`);
  // Cut inside the weights: the signature no longer decodes every weight, and still refuses a truncated file.
  writeFileSync(file, readFileSync(BERT).subarray(0, Math.floor(statSync(BERT).size * 0.6)));
  await assert.rejects(readOnnxSignature(file), (err: unknown) => err instanceof UserError && /is not a readable ONNX model/.test(err.message));
  writeFileSync(file, Buffer.from('not a protobuf at all, just text'));
  await assert.rejects(readOnnxSignature(file), (err: unknown) => err instanceof UserError && /is not a readable ONNX model/.test(err.message));
  await assert.rejects(readOnnxSignature(file), (err: unknown) => err instanceof UserError && /is not a readable ONNX model/.test(err.message));
});
