import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const ENGINES = ['onnx-cpu', 'tfjs-wasm', 'transformers-js'];
/**
 * How close each variant's vectors must stay to fp32's on the fixture (a
 * seeded model and fixed rows, so the figures do not move): fp16 and q8 move
 * them by less than 1e-4 in cosine here (0.9999998 and 0.99997), 4-bit
 * weights by about 3e-3 (0.997).
 */
const FLOOR: Record<string, number> = { fp16: 0.9999, q8: 0.999, q4: 0.99 };

test('--dtype q8, q4 and fp16 on a sentence-embedding model: QUANTIZATION gives each variant\'s min and mean cosine against fp32, and every engine runs each variant as feature extraction', async () => {
  const out = testOutputDir('fe-dtype-cosine');
  const r = await runCli([
    'run', '--details', '--model', ST, '--dataset', join(ST, 'texts.jsonl'), '--dtype', 'fp32,q8,q4,fp16', '--engines', ENGINES.join(','),
    '--batch-sizes', '2', '--limit', '8', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--out', out,
  ], { env: { COLUMNS: '80' } });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const cosine: Record<string, { min: number; mean: number }> = {};
  for (const m of run.models) {
    assert.ok(m.notes.includes('feature extraction: mean pooling, L2-normalised'), `${m.name}: ${m.notes.join(' | ')}`);
    const dtype = m.variant?.dtype ?? '';
    if (dtype === 'fp32') continue;
    const c = m.variant?.parity?.cosine;
    assert.ok(c, `${m.name} has its cosine against fp32: ${JSON.stringify(m.variant)}`);
    assert.ok(c.min <= c.mean && c.mean <= 1 + 1e-9, JSON.stringify(c));
    assert.ok(c.min > (FLOOR[dtype] ?? 1), `${dtype}: min cosine ${c.min} against fp32`);
    assert.ok(c.min < 1, `${dtype} moved the vectors at all (min cosine ${c.min})`);
    cosine[dtype] = c;
  }
  assert.deepEqual(Object.keys(cosine).sort(), ['fp16', 'q4', 'q8']);
  for (const c of run.cells) assert.equal(c.state, 'completed', `${c.model} on ${c.engine}: ${JSON.stringify(c).slice(0, 300)}`);
  for (const c of run.cells as CompletedCell[]) {
    if (c.engine === 'onnx-cpu') continue;
    // Each variant's cells are held to the same variant on onnx-cpu, as vectors.
    assert.ok(c.parity?.cosine && c.parity.cosine.min > 0.9999, `${c.model} on ${c.engine}: ${JSON.stringify(c.parity)}`);
  }
  // The table a user reads, at 80 columns: one line per variant and engine with both figures.
  const table = r.stdout.slice(r.stdout.indexOf('QUANTIZATION'));
  assert.match(table, /min cos vs fp32 +mean cos vs fp32/);
  for (const [dtype, c] of Object.entries(cosine)) {
    for (const engine of ENGINES) {
      const line = table.split('\n').find((l) => l.startsWith(`${dtype} `) && l.includes(engine.slice(0, 8)));
      assert.ok(line?.includes(`${c.min.toFixed(6)}  `) && line.endsWith(c.mean.toFixed(6)), `${dtype} on ${engine}: ${line}\n${table.slice(0, 1500)}`);
    }
  }
});
