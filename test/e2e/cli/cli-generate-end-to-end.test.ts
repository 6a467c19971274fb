import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import type { GenerationRunRecord } from '../../../src/scenarios/generate/generation-results.js';
import { GENERATION_COLUMNS } from '../../../src/scenarios/generate/generation-files.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test('inferbench generate sweeps engines × batch × prompt × new tokens and writes tables, CSV, JSON, Parquet and charts', async () => {
  const out = testOutputDir('generate-e2e');
  const r = await runCli(['generate', '--engines', 'onnx-cpu,tfjs-wasm', '--batch-sizes', '1,2', '--prompt-lengths', '8', '--new-tokens', '4,6', '--runs', '2', '--rounds', '1', '--warmup', '0', '--no-isolate', '--details', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  for (const title of ['TIME TO FIRST TOKEN', 'TIME PER OUTPUT TOKEN', 'THROUGHPUT AND PEAK MEMORY']) assert.ok(r.stdout.includes(title), `missing ${title}`);
  assert.match(r.stdout, /tok\/s/);
  assert.match(r.stdout, /seeded random/);
  const [runId] = readdirSync(out);
  const dir = join(out, runId ?? '');
  const files = ['results.json', 'results.csv', 'results.parquet', 'ttft.png', 'tpot.png'];
  for (const f of files) assert.ok(r.stdout.includes(`Wrote to ${dir}/: `) && r.stdout.includes(f), `path of ${f} printed`);

  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as GenerationRunRecord;
  assert.equal(run.kind, 'generate');
  assert.equal(run.state, 'completed');
  assert.equal(run.cells.length, 2 * 2 * 2);
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') continue;
    assert.equal(c.samples.length, 2);
    for (const s of c.samples) {
      assert.equal(s.generatedTokens, c.newTokens, 'output length is fixed by default');
      assert.equal(s.restTokenMs.length, c.newTokens - 1);
      assert.equal(s.rssBytesPerToken.length, c.newTokens);
    }
    assert.equal(c.tpot?.count, 2 * (c.newTokens - 1));
    assert.ok(c.ttft.p99 >= c.ttft.p50 && (c.decodeTokensPerSecond ?? 0) > 0 && c.prefillTokensPerSecond > 0);
    assert.ok(c.session.backend.length > 0 && Object.keys(c.session.versions).length > 0);
  }

  const csv = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\r\n');
  assert.equal(csv.length, 9);
  assert.equal(csv[0], GENERATION_COLUMNS.join(','));
  const buffer = readFileSync(join(dir, 'results.parquet'));
  const rows = (await parquetReadObjects({ file: buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) })) as Record<string, unknown>[];
  assert.equal(rows.length, 8);
  assert.deepEqual(Object.keys(rows[0] ?? {}), [...GENERATION_COLUMNS]);
  assert.ok(rows.every((row) => typeof row['ttft_mean_ms'] === 'number' && row['state'] === 'completed'));
  for (const png of ['ttft.png', 'tpot.png']) assert.deepEqual([...readFileSync(join(dir, png)).subarray(0, 8)], PNG_SIGNATURE);
});
