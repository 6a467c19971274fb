import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync as readFileSyncOf, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('export --format graph-model writes a model folder: model.json, its shards, config and tokenizer', async () => {
  const out = join(testOutputDir('cli-export'), 'gm');
  const r = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'electra'), '--format', 'graph-model', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /wrote a tfjs GraphModel of electra to /);
  assert.match(r.stdout, /run it: inferbench run --model .* --engines tfjs-node-graph-model,tfjs-wasm-graph-model,tfjs-cpu-graph-model/);
  const files = readdirSync(out);
  for (const f of ['model.json', 'group1-shard1of1.bin', 'config.json', 'tokenizer.json', 'tokenizer_config.json']) assert.ok(files.includes(f), `${f} in ${files.join(', ')}`);
  assert.ok(!files.some((f) => f.endsWith('.onnx')) && !files.includes('onnx'));
});

test('export refuses an --out that holds files, an unknown --format, and a model whose op has no mapping: exit 2, no stack, nothing written', async () => {
  const dir = testOutputDir('cli-export-bad');
  const busy = join(dir, 'busy');
  mkdirSync(busy);
  writeFileSync(join(busy, 'keep.txt'), 'mine');
  const full = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'bert'), '--format', 'saved-model', '--out', busy]);
  assert.equal(full.code, 2);
  assert.match(full.stderr, /--out .*busy already exists and is not an empty folder\n {2}fix: name a new folder/);
  assert.deepEqual(readdirSync(busy), ['keep.txt']);

  const format = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'bert'), '--format', 'tflite', '--out', join(dir, 'x')]);
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--format tflite is not a format inferbench exports\n {2}fix: use one of: graph-model, saved-model/);

  const quantized = join(dir, 'quantized');
  mkdirSync(join(quantized, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) writeFileSync(join(quantized, f), readFileSyncOf(join(HF_FIXTURES_DIR, 'bert', f)));
  writeFileSync(join(quantized, 'onnx', 'model.onnx'), readFileSyncOf(join(HF_FIXTURES_DIR, '..', 'quant', 'bert-dynamic', 'model.onnx')));
  const refused = await runCli(['export', '--model', quantized, '--format', 'graph-model', '--out', join(dir, 'q')]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /cannot export quantized as a tfjs GraphModel: quantized graph \(\w+, node \S+\)/);
  assert.doesNotMatch(refused.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(existsSync(join(dir, 'q')), false);
  assert.equal(existsSync(join(dir, 'x')), false);
});
