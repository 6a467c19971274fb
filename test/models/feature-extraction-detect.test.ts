import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, cpSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../src/core/errors.js';
import { detectTextTask, openTextModel } from '../../src/models/text-task.js';
import { FeatureExtraction } from '../../src/models/feature-extraction.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { normalizeRows, parsePoolingConfig, poolTokens } from '../../src/models/pooling.js';
import { resolveColumns, stsColumns } from '../../datasets/columns.js';
import { spearman } from '../../src/core/sts-score.js';
import { compareOutputs } from '../../src/core/parity.js';
import { packageRoot } from '../../src/core/package-info.js';
import { readSentenceTransformersFolder } from '../../src/models/sentence-transformers-folder.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const BERT = join(packageRoot(), 'test', 'data', 'hf', 'bert');
const noConfig = { config: {}, sentenceTransformers: false };

test('detection: a logits output is a classifier, a hidden-state output feature extraction, and without a graph the folder files decide', () => {
  assert.equal(detectTextTask({ ...noConfig, outputs: ['logits'] }, 'f'), 'text-classification');
  for (const out of ['last_hidden_state', 'token_embeddings', 'sentence_embedding']) assert.equal(detectTextTask({ ...noConfig, outputs: [out] }, 'f'), 'feature-extraction');
  assert.equal(detectTextTask({ config: { architectures: ['BertModel'] }, sentenceTransformers: false, outputs: null }, 'f'), 'feature-extraction');
  assert.equal(detectTextTask({ config: { architectures: ['BertModel'], id2label: { 0: 'a' } }, sentenceTransformers: false, outputs: null }, 'f'), 'text-classification');
  assert.equal(detectTextTask({ config: { architectures: ['BertForSequenceClassification'] }, sentenceTransformers: false, outputs: null }, 'f'), 'text-classification');
  assert.equal(detectTextTask({ config: {}, sentenceTransformers: true, outputs: null }, 'f'), 'feature-extraction');
  // A classifier with a custom output name keeps running as one when config.json has labels.
  assert.equal(detectTextTask({ config: { id2label: { 0: 'a', 1: 'b' } }, sentenceTransformers: false, outputs: ['scores'] }, 'f'), 'text-classification');
});

test('detection: a folder with neither a head nor a hidden-state output is refused, naming the outputs it found', () => {
  assert.throws(
    () => detectTextTask({ config: { architectures: ['BertModel'] }, sentenceTransformers: false, outputs: ['pooler_output', 'attn'] }, '/m'),
    (err: unknown) => err instanceof UserError && /neither a classification head nor a hidden-state output/.test(err.message) && /pooler_output, attn/.test(err.message),
  );
});

test('the sentence-transformers fixture opens as FeatureExtraction with mean pooling and Normalize; a classifier as TextClassification', async () => {
  const st = await openTextModel(ST);
  assert.ok(st instanceof FeatureExtraction);
  assert.deepEqual((st as FeatureExtraction).pooling, { modes: ['mean'], normalize: true });
  assert.equal(st.isolationSpec().task, 'feature-extraction');
  const cls = await openTextModel(BERT);
  assert.ok(!(cls instanceof FeatureExtraction) && cls instanceof TextClassification);
});

test('--task feature-extraction on a graph with only logits is refused naming its outputs', async () => {
  await assert.rejects(openTextModel(BERT, { task: 'feature-extraction' }), (err: unknown) => err instanceof UserError && /returns logits/.test(err.message));
});

test('a pooling config that asks for a mode that does not exist is refused, naming the file and the mode', () => {
  assert.throws(() => parsePoolingConfig({ pooling_mode_median_tokens: true }, '/m/1_Pooling/config.json'), (err: unknown) => err instanceof UserError && /median_tokens/.test(err.message) && /does not exist/.test(err.message) && /1_Pooling/.test(err.message));
  assert.throws(() => parsePoolingConfig({ pooling_mode: 'median' }, 'p'), (err: unknown) => err instanceof UserError && /"median"/.test(err.message));
  assert.throws(() => parsePoolingConfig({ pooling_mode_mean_tokens: false }, 'p'), (err: unknown) => err instanceof UserError && /no pooling mode/.test(err.message));
  assert.deepEqual(parsePoolingConfig({ pooling_mode_max_tokens: true, pooling_mode_cls_token: true }, 'p'), ['cls', 'max']);
  // Read from a folder: the error reaches the user through the model's init.
  const dir = mkdtempSync(join(tmpdir(), 'ib-pool-'));
  cpSync(ST, dir, { recursive: true });
  writeFileSync(join(dir, '1_Pooling', 'config.json'), JSON.stringify({ pooling_mode_median_tokens: true }));
  assert.throws(() => readSentenceTransformersFolder(dir), UserError);
});

test('pooling: mean, max, cls and mean_sqrt_len over the mask, and L2 normalisation, as sentence-transformers computes them', () => {
  // batch 1, sequence 3 (last position padding), hidden 2
  const tokens = { dtype: 'float32' as const, dims: [1, 3, 2], data: Float32Array.from([1, 2, 3, -4, 100, 100]) };
  const mask = { dtype: 'int64' as const, dims: [1, 3], data: BigInt64Array.from([1n, 1n, 0n]) };
  const pooled = poolTokens(tokens, mask, ['cls', 'max', 'mean', 'mean_sqrt_len']);
  assert.deepEqual([...pooled.data as Float32Array], [1, 2, 3, 2, 2, -1, 4 / Math.SQRT2, -2 / Math.SQRT2].map(Math.fround));
  const n = normalizeRows({ dtype: 'float32', dims: [1, 2], data: Float32Array.from([3, 4]) });
  assert.deepEqual([...n.data as Float32Array], [0.6, 0.8].map(Math.fround));
});

test('an STS file lacking a column is refused naming it; a full one resolves as pairs', () => {
  assert.throws(() => stsColumns(['sentence1', 'score']), (err: unknown) => err instanceof UserError && /"sentence2"/.test(err.message));
  assert.throws(() => resolveColumns(['sentence1', 'sentence2']), (err: unknown) => err instanceof UserError && /"score"/.test(err.message));
  assert.deepEqual(resolveColumns(['sentence1', 'sentence2', 'score']), { text: 'sentence1', label: null, pair: { second: 'sentence2', score: 'score' } });
  assert.equal(stsColumns(['text', 'label']), null);
});

test('spearman: ranks with ties averaged, as scipy.stats.spearmanr', () => {
  assert.equal(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1);
  assert.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1);
  // scipy.stats.spearmanr([1, 2, 2, 3, 5], [2, 1, 4, 3, 5]).statistic == 0.6668859288553503
  assert.ok(Math.abs(spearman([1, 2, 2, 3, 5], [2, 1, 4, 3, 5]) - 0.6668859288553503) < 1e-12);
});

test('embedding parity is judged by the smallest cosine against 1 - tolerance, not by |diff|', () => {
  const ref = { names: ['sentence_embedding'], rows: [[[1, 0]], [[0, 1]]] };
  const close = { names: ['sentence_embedding'], rows: [[[1, 0.001]], [[0, 1]]] };
  const p = compareOutputs(ref, close, 'onnx-cpu', 1e-4);
  assert.ok(p?.cosine && p.cosine.min > 0.9999 && p.withinTolerance);
  const far = { names: ['sentence_embedding'], rows: [[[1, 0.1]], [[0, 1]]] };
  const q = compareOutputs(ref, far, 'onnx-cpu', 1e-4);
  assert.ok(q?.cosine && q.cosine.min < 0.9999 && !q.withinTolerance);
  assert.ok(compareOutputs(ref, far, 'onnx-cpu', 0.01)?.withinTolerance);
});
