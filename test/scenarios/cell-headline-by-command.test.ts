/**
 * Issue 49: the history keeps a cell's headline columns as the scenario
 * that measured it says, looked up by its entry's command, and never
 * guesses a kind from a cell's fields. Before, a cell with a `probes` field
 * got load's headline and one with `ttft` got generate's, whatever measured
 * it: a plug-in's cell that happened to have either was misread.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { HISTORY_FILE, HistoryStore } from '../../src/runs/history/history-store.js';
import { withStore } from '../../src/runs/history/store-access.js';
import { registerScenario } from '../../src/scenarios/scenario-registry.js';
import { testOutputDir } from '../helpers/test-cache.js';

interface ProbeCell {
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  readonly state: 'completed';
  /** A field load's cells also have: the plug-in means something else by it. */
  readonly probes: readonly number[];
  readonly ttft: { readonly mean: number };
}

registerScenario({
  command: 'probe-test',
  recordKind: 'probe-test',
  options: { command: 'probe-test', summary: 'a test scenario', flags: [] } as never,
  modelsAsked: () => [],
  settingLines: () => [],
  report: () => '',
  views: () => ({}),
  cellHeadline: (cell: ProbeCell) => ({ meanMs: cell.probes.length, p95Ms: null, perSecond: 42 }),
});

async function columnsOf(command: string): Promise<Record<string, unknown>> {
  const out = testOutputDir(`cell-headline-${command}`);
  const store = new HistoryStore(out);
  const cell: ProbeCell = { model: 'm', engine: 'e', batchSize: 1, requestedThreads: null, state: 'completed', probes: [1, 2, 3], ttft: { mean: 9 } };
  const id = await store.create({ config: { command, out } as never, source: 'cli', state: 'running' });
  await store.addCell(id, 0, cell, 1, command);
  return withStore(join(out, HISTORY_FILE), async (db) => (await db.runAndReadAll('SELECT mean_ms, p95_ms, samples_per_second FROM cells WHERE run = $id', { id })).getRowObjectsJS()[0] ?? {});
}

test("a cell's headline columns are its scenario's, by the entry's command, never guessed from fields another scenario's cells have", async () => {
  assert.deepEqual(await columnsOf('probe-test'), { mean_ms: 3, p95_ms: null, samples_per_second: 42 });
  // A command that gives no headline keeps its figures in the cell's JSON alone.
  assert.deepEqual(await columnsOf('no-headline-test'), { mean_ms: null, p95_ms: null, samples_per_second: null });
});
