import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../src/core/errors.js';
import { packageRoot } from '../../src/core/package-info.js';
import { FeatureExtraction } from '../../src/models/feature-extraction.js';
import { copyModelFiles } from '../../src/models/quantize/quantize-cache.js';
import { readSentenceTransformersFolder } from '../../src/models/sentence-transformers-folder.js';
import { openTextModel } from '../../src/models/text-task.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');

/** A fresh copy of the fixture with `edit` applied to its JSON file `file`. */
function copyWith(file: string, edit: (json: any) => unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'ib-st-'));
  cpSync(ST, dir, { recursive: true });
  const path = join(dir, file);
  const before = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  writeFileSync(path, JSON.stringify(edit(before)));
  return dir;
}

function refused(dir: string, ...patterns: RegExp[]): void {
  assert.throws(() => readSentenceTransformersFolder(dir), (err: unknown) => {
    assert.ok(err instanceof UserError, String(err));
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

test('a module path that does not exist is refused naming modules.json, the module and its path (Normalize, which has no files, may be absent)', () => {
  refused(copyWith('modules.json', (m) => m.map((e: any) => (e.path === '1_Pooling' ? { ...e, path: '1_Poolng' } : e))), /modules\.json: module 1 \(Pooling\)/, /"path" "1_Poolng"/, /does not exist/);
  refused(copyWith('modules.json', (m) => [...m, { idx: 3, name: '3', path: '3_Dense', type: 'sentence_transformers.models.Dense' }]), /Dense/, /does not compute/);
  refused(copyWith('modules.json', (m) => m.map((e: any) => (e.path === '1_Pooling' ? { ...e, path: '../x' } : e))), /leads out of the model folder/);
  assert.equal(existsSync(join(ST, '2_Normalize')), false);
  assert.deepEqual(readSentenceTransformersFolder(ST).pooling, { modes: ['mean'], normalize: true });
});

test('word_embedding_dimension unlike the hidden size, and a max_seq_length that is not a positive integer or exceeds the positions, are refused naming file and field', () => {
  refused(copyWith(join('1_Pooling', 'config.json'), (c) => ({ ...c, word_embedding_dimension: 384 })), /1_Pooling\/config\.json: "word_embedding_dimension" is 384, but the model's hidden size \(config\.json\) is 32/);
  for (const bad of [0, -3, 2.5, '128', true]) refused(copyWith('sentence_bert_config.json', () => ({ max_seq_length: bad })), /sentence_bert_config\.json: "max_seq_length" is .*not a positive integer/);
  refused(copyWith('sentence_bert_config.json', () => ({ max_seq_length: 4096 })), /"max_seq_length" is 4096, more than the model's 128 positions/);
  refused(copyWith('sentence_bert_config.json', () => ({ max_seq_length: 64, do_lower_case: 'yes' })), /"do_lower_case" is "yes"/);
});

test('max_seq_length is the truncation length, do_lower_case lower-cases, and the row says both', async () => {
  const dir = copyWith('sentence_bert_config.json', () => ({ max_seq_length: 8, do_lower_case: true }));
  const model = (await openTextModel(dir)) as FeatureExtraction;
  assert.ok(model instanceof FeatureExtraction);
  assert.equal(model.maxLength, 8);
  assert.equal(model.encode('word '.repeat(40)).ids.length, 8);
  assert.deepEqual(model.encode('Hello World').ids, model.encode('hello world').ids);
  const notes = (await model.info()).notes.join('\n');
  assert.match(notes, /truncated at 8 tokens \(max_seq_length 8, sentence_bert_config\.json\)/);
  assert.match(notes, /lower-cased \(do_lower_case\)/);
});

test('--task text-classification on a model with no head is refused, naming its outputs', async () => {
  await assert.rejects(openTextModel(ST, { task: 'text-classification' }), (err: unknown) => err instanceof UserError && /no classification head/.test(err.message) && /last_hidden_state|token_embeddings|sentence_embedding/.test(err.message));
});

test('a copy of a model folder (export, quantized variants) carries 1_Pooling with it, and a malformed one is refused before anything is copied', async () => {
  const cls = copyWith(join('1_Pooling', 'config.json'), (c) => ({ ...c, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }));
  const to = mkdtempSync(join(tmpdir(), 'ib-st-to-'));
  await copyModelFiles(cls, to);
  assert.deepEqual(readSentenceTransformersFolder(to).pooling, { modes: ['cls'], normalize: true });
  const bad = copyWith(join('1_Pooling', 'config.json'), () => ({ pooling_mode_median_tokens: true }));
  const empty = mkdtempSync(join(tmpdir(), 'ib-st-to-'));
  await assert.rejects(copyModelFiles(bad, empty), UserError);
  assert.equal(existsSync(join(empty, 'modules.json')), false);
  for (const d of [cls, to, bad, empty]) rmSync(d, { recursive: true, force: true });
});
