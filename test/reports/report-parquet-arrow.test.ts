import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { parquetReadObjects, parquetMetadata, parquetSchema } from 'hyparquet';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { CSV_COLUMNS } from '../../reports/csv-report.js';
import { RESULT_COLUMN_KINDS } from '../../reports/result-tables.js';
import { orderedCells } from '../../reports/run-summary.js';
import { cellFigures } from '../../reports/run-views.js';
import { writeRunFiles } from '../../reports/write-run.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { testOutputDir } from '../helpers/test-cache.js';

type Row = Record<string, unknown>;

/** bigint → number, so rows from both readers compare with JSON numbers. */
function plain(row: Row): Row {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}

async function readParquet(path: string): Promise<{ columns: string[]; rows: Row[] }> {
  const bytes = await readFile(path);
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const columns = parquetSchema(parquetMetadata(file)).children.map((c) => c.element.name);
  return { columns, rows: (await parquetReadObjects({ file })).map(plain) };
}

async function readArrow(path: string): Promise<{ columns: string[]; rows: Row[] }> {
  const table = tableFromIPC(await readFile(path));
  return { columns: table.schema.fields.map((f) => f.name), rows: table.toArray().map((r) => plain((r as { toJSON(): Row }).toJSON())) };
}

/** What each result row must hold, taken from the JSON record. */
function expectedResultRow(run: RunRecord, cell: CellResult): Row {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  const done = cell.state === 'completed' ? cell : undefined;
  return {
    run_id: run.id,
    model: cell.model,
    engine: cell.engine,
    backend: session?.backend ?? null,
    threads: session?.threads ?? null,
    requested_threads: cell.requestedThreads,
    batch_size: cell.batchSize,
    state: cell.state,
    reason: cell.state === 'completed' ? null : cell.reason,
    measured_batches: done?.latency.count ?? null,
    items: done?.itemsTotal ?? null,
    // Per-pass total, mean of round means and samples/s come from the views (the sample run predates pass lengths: no total).
    total_ms: done ? cellFigures(done).engine.passMs : null,
    mean_ms: done ? cellFigures(done).engine.meanMs : null,
    p99_ms: done?.latency.p99 ?? null,
    samples_per_s: done ? cellFigures(done).engine.samplesPerSecond : null,
    peak_rss_bytes: done?.peakRssBytes ?? null,
  };
}

test('each run writes its result rows and raw samples as Parquet and Arrow, matching results.json', async () => {
  const dir = testOutputDir('report-parquet-arrow');
  await writeRunFiles(buildSampleRun(), dir, { png: false });
  const run = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as RunRecord;
  const cells = orderedCells(run);
  assert.ok(CSV_COLUMNS.every((c) => c in RESULT_COLUMN_KINDS), 'every CSV column has a fixed type');

  for (const file of ['results.parquet', 'results.arrow']) {
    const { columns, rows } = file.endsWith('.parquet') ? await readParquet(join(dir, file)) : await readArrow(join(dir, file));
    assert.deepEqual(columns, CSV_COLUMNS, `${file}: the CSV's column names, in order`);
    assert.equal(rows.length, cells.length);
    rows.forEach((row, i) => {
      const want = expectedResultRow(run, cells[i] as CellResult);
      for (const [key, value] of Object.entries(want)) assert.deepEqual(row[key], value, `${file} row ${i} ${key}`);
    });
  }

  const expectedSamples: Row[] = [];
  for (const cell of cells) {
    if (cell.state !== 'completed') continue;
    cell.samples.runMs.forEach((runMs, i) =>
      expectedSamples.push({
        run_id: run.id,
        model: cell.model,
        engine: cell.engine,
        batch_size: cell.batchSize,
        requested_threads: cell.requestedThreads,
        batch_index: i,
        run_ms: runMs,
        prepare_ms: cell.samples.prepareMs[i],
        items: cell.samples.items[i],
        forward_ms: null,
        end_to_end_ms: null,
      }),
    );
  }
  assert.ok(expectedSamples.length > 100);
  for (const file of ['samples.parquet', 'samples.arrow']) {
    const { rows } = file.endsWith('.parquet') ? await readParquet(join(dir, file)) : await readArrow(join(dir, file));
    assert.deepEqual(rows, expectedSamples, `${file}: one row per measured batch`);
  }
});
