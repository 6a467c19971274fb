import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import * as ort from 'onnxruntime-node';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('onnxruntime-node runs the generated model on a padded batch and returns [batch, 2] logits', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const tokenizer = new Tokenizer(
    JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')),
    JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')),
  );
  const batch = ['A wonderful film!', 'Terrible pacing and wooden performances, a waste of money.', 'Loud.'];
  const encoded = batch.map((text) => tokenizer.encode(text, { return_token_type_ids: true }));
  const seq = Math.max(...encoded.map((e) => e.ids.length));
  const column = (pick: (e: (typeof encoded)[number]) => number[]) =>
    BigInt64Array.from(encoded.flatMap((e) => [...pick(e), ...new Array<number>(seq - e.ids.length).fill(0)]), BigInt);
  const session = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'));
  try {
    assert.deepEqual([...session.inputNames].sort(), ['attention_mask', 'input_ids', 'token_type_ids']);
    const dims = [batch.length, seq];
    const out = await session.run({
      input_ids: new ort.Tensor('int64', column((e) => e.ids), dims),
      attention_mask: new ort.Tensor('int64', column((e) => e.attention_mask), dims),
      token_type_ids: new ort.Tensor('int64', column((e) => e.token_type_ids), dims),
    });
    const logits = out['logits'];
    assert.ok(logits, 'no logits output');
    assert.equal(logits.type, 'float32');
    assert.deepEqual(logits.dims, [3, 2]);
    assert.ok([...(logits.data as Float32Array)].every(Number.isFinite));

    // Padding must not change a row: run the shortest text alone, unpadded.
    const short = encoded[2] as (typeof encoded)[number];
    const alone = await session.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.from(short.ids, BigInt), [1, short.ids.length]),
      attention_mask: new ort.Tensor('int64', BigInt64Array.from(short.attention_mask, BigInt), [1, short.ids.length]),
      token_type_ids: new ort.Tensor('int64', BigInt64Array.from(short.token_type_ids, BigInt), [1, short.ids.length]),
    });
    const padded = (logits.data as Float32Array).slice(4, 6);
    const single = (alone['logits']?.data as Float32Array);
    for (let i = 0; i < 2; i++) assert.ok(Math.abs((padded[i] as number) - (single[i] as number)) < 1e-5, 'padding changed the logits');
  } finally {
    await session.release();
  }
});
