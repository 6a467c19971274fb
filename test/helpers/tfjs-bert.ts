/**
 * The generated default BERT model and a padded, tokenized batch for it,
 * shared by the tfjs tests that need a real transformer graph.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { hostTensor, type TensorMap } from '../../src/core/tensor.js';
import { REVIEW_TEXTS } from './default-model-fixtures.js';
import { useTestCache } from './test-cache.js';

/** Folder of the generated model, in the shared git-ignored test cache. */
export async function bertModelDir(): Promise<string> {
  return ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: useTestCache() });
}

/** Tokenizes `texts` with the model's own tokenizer and right-pads them to the longest, as a benchmark batch would. */
export async function bertBatch(dir: string, texts: readonly string[]): Promise<TensorMap> {
  const tokenizer = new Tokenizer(
    JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')),
    JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')),
  );
  const encoded = texts.map((text) => tokenizer.encode(text, { return_token_type_ids: true }));
  const seq = Math.max(...encoded.map((e) => e.ids.length));
  const column = (pick: (e: (typeof encoded)[number]) => number[]): BigInt64Array =>
    BigInt64Array.from(encoded.flatMap((e) => [...pick(e), ...new Array<number>(seq - pick(e).length).fill(0)]), BigInt);
  const dims = [texts.length, seq];
  return {
    input_ids: hostTensor('int64', dims, column((e) => e.ids)),
    attention_mask: hostTensor('int64', dims, column((e) => e.attention_mask)),
    token_type_ids: hostTensor('int64', dims, column((e) => e.token_type_ids)),
  };
}
