/**
 * A sentence-transformers model with CLS pooling exported as a tfjs
 * GraphModel keeps its pooling: the export carries 1_Pooling/ and
 * modules.json, and a run on it gives the source's vectors (cosine ≥
 * 0.9999). A malformed sentence-transformers file is refused by `export`
 * and by `run` with exit 2, naming the file and the field, before anything
 * is written or loaded.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cosineSimilarity } from '../../../src/core/parity.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const QUICK = ['--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--batch-sizes', '4', '--limit', '8'];

function copyWith(dir: string, file: string, edit: (json: any) => unknown): string {
  cpSync(ST, dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')))));
  return dir;
}

async function vectors(model: string, engine: string, out: string): Promise<number[][]> {
  const r = await runCli(['run', '--model', model, '--dataset', join(ST, 'texts.jsonl'), '--engines', engine, '--reference', engine, '--save-outputs', ...QUICK, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const run = join(out, readdirSync(out)[0] ?? '');
  const { parquetReadObjects } = await import('hyparquet');
  const rows = (await parquetReadObjects({ file: new Uint8Array(readFileSync(join(run, 'outputs.parquet'))).buffer })) as { row: bigint; vector: number[] }[];
  return rows.sort((a, b) => Number(a.row - b.row)).map((x) => [...x.vector]);
}

test('export --format graph-model of a CLS-pooling sentence-transformers model keeps CLS pooling: same vectors as the source (cosine ≥ 0.9999)', async () => {
  const base = testOutputDir('st-export-cls');
  const src = copyWith(join(base, 'src'), join('1_Pooling', 'config.json'), (c) => ({ ...c, pooling_mode_cls_token: true, pooling_mode_mean_tokens: false }));
  const exp = join(base, 'exp');
  const r = await runCli(['export', '--model', src, '--format', 'graph-model', '--out', exp]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(exp, '1_Pooling', 'config.json'), 'utf8')), JSON.parse(readFileSync(join(src, '1_Pooling', 'config.json'), 'utf8')));
  assert.ok(existsSync(join(exp, 'modules.json')));
  const want = await vectors(src, 'onnx-cpu', join(base, 'runs-src'));
  const got = await vectors(exp, 'tfjs-cpu-graph-model', join(base, 'runs-exp'));
  assert.equal(got.length, want.length);
  got.forEach((v, i) => assert.ok(cosineSimilarity(v, want[i] as number[]) >= 0.9999, `row ${i}: cosine ${cosineSimilarity(v, want[i] as number[])}`));
});

test('a malformed sentence-transformers file is refused by export and by run with exit 2, naming file and field, nothing written', async () => {
  const base = testOutputDir('st-export-bad');
  const bad = copyWith(join(base, 'bad'), join('1_Pooling', 'config.json'), (c) => ({ ...c, word_embedding_dimension: 384 }));
  const exp = await runCli(['export', '--model', bad, '--format', 'graph-model', '--out', join(base, 'exp')]);
  assert.equal(exp.code, 2, exp.stderr);
  assert.match(exp.stderr, /1_Pooling\/config\.json: "word_embedding_dimension" is 384, but the model's hidden size \(config\.json\) is 32/);
  assert.doesNotMatch(exp.stderr, /\n\s+at /);
  assert.equal(existsSync(join(base, 'exp')), false);
  const missing = copyWith(join(base, 'missing'), 'modules.json', (m) => m.map((e: any) => (e.path === '1_Pooling' ? { ...e, path: '9_Pooling' } : e)));
  const run = await runCli(['run', '--model', missing, '--dataset', join(ST, 'texts.jsonl'), '--engines', 'onnx-cpu', ...QUICK, '--out', join(base, 'runs')]);
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /modules\.json: module 1 \(Pooling\) has "path" "9_Pooling", which does not exist/);
  const headless = await runCli(['run', '--model', ST, '--task', 'text-classification', '--dataset', join(ST, 'texts.jsonl'), '--engines', 'onnx-cpu', ...QUICK, '--out', join(base, 'runs2')]);
  assert.equal(headless.code, 2, headless.stderr);
  assert.match(headless.stderr, /no classification head/);
});
