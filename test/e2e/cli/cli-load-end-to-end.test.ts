import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import type { LoadRunRecord } from '../../../src/scenarios/load/load-results.js';
import { SERVER_COLUMNS } from '../../../src/scenarios/load/load-files.js';
import { runCli } from '../../helpers/cli.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test('inferbench load serves onnx-cpu and onnx-wasm at two rates and finds each peak under a p99 goal, writing tables, CSV, Parquet, every request and both charts', async () => {
  const out = testOutputDir('load-e2e');
  const r = await runCli([
    'load', '--engines', 'onnx-cpu,onnx-wasm', '--rates', '20,40', '--find-peak', '--slo', 'p99=50ms',
    '--duration', '0.3', '--warmup', '0.1', '--min-queries', '10', '--no-isolate', '--details', '--out', out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  for (const title of ['LATENCY UNDER LOAD', 'TIME PER REQUEST', 'PEAK RATE']) assert.ok(r.stdout.includes(title), `missing ${title}`);
  const peakTable = r.stdout.slice(r.stdout.indexOf('PEAK RATE'));
  for (const engine of ['onnx-cpu', 'onnx-wasm']) assert.match(peakTable, new RegExp(`${engine}\\s+(\\d|none)`), `${engine} has a peak row`);
  const [runId] = readdirSync(out).filter((f) => f !== 'history.duckdb' && !f.startsWith('history'));
  const dir = join(out, runId ?? '');
  for (const f of ['results.json', 'results.csv', 'results.parquet', 'samples.parquet', 'hockey-stick.png', 'latency-cdf.png']) assert.ok(r.stdout.includes(`Wrote to ${dir}/: `) && r.stdout.includes(f), `path of ${f} printed`);
  for (const png of ['hockey-stick.png', 'latency-cdf.png']) assert.deepEqual([...readFileSync(join(dir, png)).subarray(0, 8)], PNG_SIGNATURE);

  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as LoadRunRecord;
  assert.equal(run.kind, 'load');
  assert.equal(run.cells.length, 2);
  let requests = 0;
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c).slice(0, 400));
    if (c.state !== 'completed') continue;
    assert.deepEqual(c.probes.filter((p) => p.purpose === 'rate').map((p) => p.targetRps), [20, 40]);
    // The search probes rates of its own, unless both given rates failed (one stall past 50 ms on a loaded machine is a
    // p99 miss at these few requests) and halving the lower falls under the search's floor: then it has nothing to try.
    const given = c.probes.filter((p) => p.purpose === 'rate');
    assert.ok(c.probes.some((p) => p.purpose !== 'rate') || given.every((p) => p.passed === false), `the peak search probed rates of its own: ${JSON.stringify(c.probes.map((p) => [p.targetRps, p.purpose, p.passed]))}`);
    assert.equal(c.peak?.rounds.length, 1);
    for (const p of c.probes) {
      // Every request's sample is kept: each column holds one value per measured request.
      for (const column of Object.values(p.samples)) assert.equal(column.length, p.summary.requests);
      requests += p.summary.requests;
      assert.ok(p.summary.latency.p999 >= p.summary.latency.p50);
      assert.ok(p.summary.slo !== null && p.passed !== null);
    }
  }

  const [header, ...rows] = parseCsv(readFileSync(join(dir, 'results.csv'), 'utf8'));
  assert.deepEqual(header, [...SERVER_COLUMNS]);
  for (const name of ['scenario', 'offered_rps', 'achieved_rps', 'p50_ms', 'p90_ms', 'p95_ms', 'p99_ms', 'p999_ms', 'queue_wait_mean_ms', 'queue_wait_p99_ms', 'batch_sizes', 'goodput_rps', 'over_slo_share', 'verdict']) {
    assert.ok(header?.includes(name), `column ${name}`);
  }
  const scenario = header?.indexOf('scenario') ?? -1;
  assert.ok(rows.length >= 4 && rows.every((row) => row[scenario] === 'load'));
  const parquetRows = await parquetReadObjects({ file: toArrayBuffer(readFileSync(join(dir, 'results.parquet'))) });
  assert.equal(parquetRows.length, rows.length);
  const samples = await parquetReadObjects({ file: toArrayBuffer(readFileSync(join(dir, 'samples.parquet'))) });
  assert.equal(samples.length, requests, 'samples.parquet has one row per measured request');
});

function toArrayBuffer(buffer: Buffer): ArrayBuffer {
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
}
