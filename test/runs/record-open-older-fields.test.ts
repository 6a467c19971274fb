/**
 * Issue 49, item 4: an engine's load became its open, so cells store
 * `openMs` and `afterOpen`. Records written before say `loadMs` and
 * `afterLoad` (on the cell, its cold start, each round's, and a browser
 * row's page heap); they must read as today's fields wherever a stored cell
 * is read back: a results.json (show, compare) and the history's cells (the
 * dashboard, show by id), and the CSV written from them keeps its figures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunRecord } from '../../reports/read-run.js';
import { renderCsv } from '../../reports/csv-report.js';
import { cellInCurrentWords } from '../../src/core/record-kind.js';
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { HistoryStore } from '../../src/runs/history/history-store.js';
import '../../src/runs/builtin-scenarios.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** The record as an inferbench from before the rename wrote it. */
function inOlderWords<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"openMs":', '"loadMs":').replaceAll('"afterOpen":', '"afterLoad":')) as T;
}

/** A completed cell with a cold start and rounds, in today's words. */
function openedCell(): CellResult {
  const run = buildSampleRun();
  const cell = run.cells.find((c) => c.state === 'completed');
  assert.ok(cell?.state === 'completed');
  const coldStart = { openMs: 7, firstBatchMs: 3, afterOpen: true, measuredBefore: [] };
  return {
    ...cell,
    openMs: 7,
    coldStart,
    rounds: [{ index: 0, runMs: [1], prepareMs: [0], items: [1], passes: 1, meanMs: 1, openMs: 7, firstPassMs: 2, coldStart }],
  } as unknown as CellResult;
}

test('a results.json written with loadMs and afterLoad reads as openMs and afterOpen, and its CSV keeps the open time', async () => {
  const today: RunRecord = { ...buildSampleRun(), cells: [openedCell()] };
  const older = inOlderWords(today);
  assert.match(JSON.stringify(older), /"loadMs":7/, 'the fixture is in the older words');
  const folder = testOutputDir('record-open-older-fields');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'results.json'), JSON.stringify(older));
  const read = (await readRunRecord(folder)).record;
  assert.deepEqual(read.cells, today.cells);
  assert.doesNotMatch(JSON.stringify(read), /"loadMs"|"afterLoad"/);
  const [header, row] = parseCsv(renderCsv(read));
  const col = (name: string) => (header ?? []).indexOf(name);
  assert.equal(row?.[col('open_ms')], '7');
  assert.equal(row?.[col('cold_after_open')], 'true');
});

test("the history's cells stored with loadMs read back as openMs, as every scenario's cells do", async () => {
  const out = testOutputDir('record-open-older-fields-history');
  const store = new HistoryStore(out);
  const id = await store.create({ config: { command: 'generate', out } as never, source: 'cli', state: 'running' });
  const generated = { model: 'm', engine: 'e', batchSize: 1, requestedThreads: null, state: 'completed', loadMs: 12, ttft: { mean: 3, p95: 4 }, decodeTokensPerSecond: 5 };
  await store.addCell(id, 0, generated as unknown as CellResult, 1, 'generate');
  const cells = (await store.get(id))?.cells ?? [];
  assert.deepEqual(cells, [{ model: 'm', engine: 'e', batchSize: 1, requestedThreads: null, state: 'completed', openMs: 12, ttft: { mean: 3, p95: 4 }, decodeTokensPerSecond: 5 }]);
});

test("a browser row's page heap after the open reads as afterOpen; a cell with both words keeps today's, one with neither is returned as it is", () => {
  const heap = { bytes: 1024, source: 'performance.memory', covers: 'the heap' };
  const browser = { coldStart: { pageLoadMs: 5, runtimeInitMs: null, sessionBuildMs: 7 }, memory: { afterLoad: heap, peakJsHeapBytes: null } };
  assert.deepEqual(cellInCurrentWords({ state: 'errored', session: { backend: 'wasm', browser } }), {
    state: 'errored',
    session: { backend: 'wasm', browser: { ...browser, memory: { afterOpen: heap, peakJsHeapBytes: null } } },
  });
  const both = { loadMs: 1, openMs: 2, rounds: 3 };
  assert.deepEqual(cellInCurrentWords(both), { openMs: 2, rounds: 3 });
  const plain = { openMs: 2, rounds: [1, 2], session: { browser: null } };
  assert.equal(cellInCurrentWords(plain), plain);
});
