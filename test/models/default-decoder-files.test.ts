import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { TINY_GPT2_CONFIG } from '../../src/models/generated/gpt2-config.js';
import { ensureGeneratedDecoder } from '../../src/models/generated/generated-decoder.js';
import { TextGeneration } from '../../src/models/text-generation.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('the generated decoder folder is byte-identical across generations, and its tokenizer round-trips text in both libraries', async () => {
  const first = await ensureGeneratedDecoder(TINY_GPT2_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const second = await ensureGeneratedDecoder(TINY_GPT2_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  for (const file of ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json', 'generation_config.json']) {
    const [a, b] = await Promise.all([readFile(join(first, file)), readFile(join(second, file))]);
    assert.ok(a.length > 0 && a.equals(b), `${file} differs between two generations`);
  }
  const config = JSON.parse(await readFile(join(first, 'config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(config['model_type'], 'gpt2');
  assert.deepEqual(config['architectures'], ['GPT2LMHeadModel']);

  const model = await new TextGeneration(first).init();
  const text = 'A touching, naïve little café romance — 10/10!';
  const ids = model.encode(text);
  assert.ok(ids.length > 0 && ids.length < text.length, 'merges shorten the byte sequence');
  assert.equal(model.decode(ids), text, 'byte-level BPE loses nothing');
  env.allowRemoteModels = false;
  const tjs = await AutoTokenizer.from_pretrained(first, { local_files_only: true });
  assert.deepEqual(tjs.encode(text), ids, 'transformers.js tokenizes to the same ids');
  assert.deepEqual(model.promptIds(['ab'], 5)[0]?.length, 5, 'prompts are repeated to the requested length');
});
