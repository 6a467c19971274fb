import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { cosineSimilarity } from '../../../src/core/parity.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
/** PyTorch embeddings (mean pooling, normalize) and STS Spearman, written by tools/export-st-fixture.py. */
const REFERENCE = JSON.parse(readFileSync(join(ST, 'reference.json'), 'utf8')) as { texts: string[]; embeddings: number[][]; sts: { pairs: number; spearman: number } };
const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu-graph-model', 'transformers-js'];
const QUICK = ['--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate'];

function completed(run: RunRecord): CompletedCell[] {
  for (const c of run.cells) assert.equal(c.state, 'completed', JSON.stringify(c).slice(0, 400));
  return run.cells as CompletedCell[];
}

function readRun(out: string): { dir: string; run: RunRecord } {
  const dir = join(out, readdirSync(out)[0] ?? '');
  return { dir, run: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunRecord };
}

test('a sentence-transformers folder runs on five engines with cosine parity above 0.9999, and outputs.parquet matches PyTorch', async () => {
  const out = testOutputDir('fe-engines');
  const r = await runCli(['run', '--model', ST, '--dataset', join(ST, 'texts.jsonl'), '--engines', ENGINES.join(','), '--batch-sizes', '8', '--limit', String(REFERENCE.texts.length), '--save-outputs', ...QUICK, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const { dir, run } = readRun(out);
  const cells = completed(run);
  assert.deepEqual(cells.map((c) => c.engine).sort(), [...ENGINES].sort());
  for (const c of cells) {
    if (c.engine === 'onnx-cpu') continue;
    assert.ok(c.parity?.cosine, `${c.engine} has cosine parity`);
    assert.ok(c.parity.cosine.min > 0.9999 && c.parity.withinTolerance, `${c.engine}: min cosine ${c.parity.cosine.min}`);
    assert.equal(c.parity.rows, REFERENCE.texts.length);
  }
  const { parquetReadObjects } = await import('hyparquet');
  const rows = (await parquetReadObjects({ file: new Uint8Array(readFileSync(join(dir, 'outputs.parquet'))).buffer })) as { engine: string; batch_size: bigint; row: bigint; text_sha256: string; vector: number[] }[];
  // Every cell passed parity: only the reference's rows are kept, one per input row.
  assert.deepEqual([...new Set(rows.map((x) => x.engine))], ['onnx-cpu']);
  assert.equal(rows.length, REFERENCE.texts.length);
  for (const x of rows) {
    assert.equal(Number(x.batch_size), 8);
    const expected = REFERENCE.embeddings[Number(x.row)] as number[];
    const cos = cosineSimilarity(x.vector, expected);
    assert.ok(cos > 0.9999, `row ${x.row}: cosine with PyTorch ${cos}`);
  }
});

test('an STS run gives, on every engine, the Spearman Python computed from the PyTorch embeddings (within 0.005), in results.csv too', async () => {
  const out = testOutputDir('fe-sts');
  const engines = ['onnx-cpu', 'tfjs-wasm', 'transformers-js'];
  const r = await runCli(['run', '--model', ST, '--dataset', join(ST, 'sts.jsonl'), '--engines', engines.join(','), '--batch-sizes', '16', '--limit', String(REFERENCE.sts.pairs), ...QUICK, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /STS QUALITY/);
  const { dir, run } = readRun(out);
  for (const c of completed(run)) {
    assert.ok(c.sts, `${c.engine} has an STS figure`);
    assert.equal(c.sts.pairs, REFERENCE.sts.pairs);
    assert.ok(Math.abs((c.sts.spearman ?? NaN) - REFERENCE.sts.spearman) < 0.005, `${c.engine}: ${c.sts.spearman} vs PyTorch ${REFERENCE.sts.spearman}`);
  }
  const [cols = [], ...lines] = parseCsv(readFileSync(join(dir, 'results.csv'), 'utf8'));
  assert.ok(cols.includes('sts_spearman') && cols.includes('sts_pairs'));
  for (const line of lines.filter((l) => l.length > 1)) {
    assert.equal(line[cols.indexOf('sts_pairs')], String(REFERENCE.sts.pairs));
    assert.ok(Math.abs(Number(line[cols.indexOf('sts_spearman')]) - REFERENCE.sts.spearman) < 0.005);
  }
});

test('an STS file lacking a column is refused before anything loads, naming the column', async () => {
  const out = testOutputDir('fe-sts-missing');
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(out, { recursive: true });
  const file = join(out, 'pairs.jsonl');
  writeFileSync(file, '{"sentence1":"a","sentence2":"b"}\n{"sentence1":"c","sentence2":"d"}\n');
  const r = await runCli(['run', '--model', ST, '--dataset', file, '--engines', 'onnx-cpu', ...QUICK, '--out', join(out, 'runs')]);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /lacks the column "score"/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
});
